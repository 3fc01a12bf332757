import PenKit
import PenEngine

/// A pressure source's `pressure-source` lines on the devices channel: attached (with the frames
/// of the stroke it joins so far, `contactFrames`) and detached. It runs after the engine and
/// before the encoder, so a detachment is announced before the updates of the fallback's expiries.
struct PressureSourceLines: PipelineStage {
    /// Frames of a stroke sent per device, for an attachment's `contactFrames`.
    private var contactFrames: [UInt32: Int] = [:]

    mutating func run(_ input: PipelineInput, _ call: inout PipelineCall, _ out: inout OutboundBatch) {
        switch input {
        case .control(.attach(let device, let attachment)):
            out.append(.devices, PressureSourceMessage.attached(PressureSourceRequest(
                device: Int(device), serial: attachment.serial, latency: attachment.latency, jitter: attachment.jitter),
                contactFrames: contactFrames[device, default: 0]), sourceStateOf: Int(device))
        case .control(.detach(let device, let reason)):
            out.append(.devices, PressureSourceMessage.detached(device: Int(device), reason: reason), sourceStateOf: Int(device))
        case .deviceRemoved(let device, _):
            contactFrames[UInt32(device)] = nil
            countContactFrames(in: call.replies)
        case .resume:
            // Counted when the engine made them.
            break
        case .tool, .pad, .tick, .shutdown, .control:
            countContactFrames(in: call.replies)
        }
    }

    private mutating func countContactFrames(in replies: [EngineMessage]) {
        for case .frame(let frame) in replies where frame.stroke != nil { contactFrames[frame.device, default: 0] += 1 }
    }
}
