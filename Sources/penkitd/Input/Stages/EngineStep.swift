import PenEngine
import PenKit

/// The stroke engine's turn: it estimates, predicts and assembles strokes from what came in, and
/// says so in `call.replies`, which the encoder turns into lines. The engine runs synchronously on
/// the input thread, which is its serial executor: no actor hop between an event and its frame.
struct EngineStep: PipelineStage {
    mutating func run(_ input: PipelineInput, _ call: inout PipelineCall, _ out: inout OutboundBatch) {
        defer { call.engineRan = true }
        switch input {
        case .tool(let event, let device):
            call.engine.handle(event, device: UInt32(device), into: &call.replies)
        case .tick(let time):
            call.engine.advance(to: time, into: &call.replies)
        case .deviceRemoved(let device, let time):
            call.engine.removeDevice(UInt32(device), at: time, into: &call.replies)
        case .shutdown(let time):
            call.engine.cancelAll(at: time, into: &call.replies)
            call.engine.flush(into: &call.replies)
        case .control(.attach(let device, let attachment)):
            call.engine.attachPressureSource(attachment, device: device)
        case .control(.reading(let report, let arrival)):
            call.engine.handlePressure(report, arrival: arrival, into: &call.replies)
        case .control(.detach(let device, _)):
            call.engine.detachPressureSource(device: device, at: MonotonicClock.now(), into: &call.replies)
        case .pad, .control(.horizons), .resume:
            break
        }
    }
}
