import PenKit

/// A pen's proximity in and out, as a `proximity` line on the frames channel. The daemon writes it
/// itself: the engine's messages are frames, updates and strokes.
struct ProximityLines: PipelineStage {
    mutating func run(_ input: PipelineInput, _ call: inout PipelineCall, _ out: inout OutboundBatch) {
        guard case .tool(let event, let device) = input, event.kind == .proximity else { return }
        out.append(.frames, ProximityMessage(device: device, time: event.time,
                                             entering: event.state == .proximityIn, tool: event.tool))
    }
}
