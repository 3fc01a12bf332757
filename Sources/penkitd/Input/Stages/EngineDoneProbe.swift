/// Where `penkit bench latency` reads when each frame left the engine (`engine_done`); nil probe
/// unless `--latency-probe` was given.
struct EngineDoneProbe: PipelineStage {
    let probe: LatencyProbe?

    mutating func run(_ input: PipelineInput, _ call: inout PipelineCall, _ out: inout OutboundBatch) {
        guard let probe, case .tool(let event, _) = input, call.madeFrame else { return }
        probe.record(.engineDone, sourceTime: event.time)
    }
}
