import PenEngine
import PenKit

/// Tells the flight recorder what libinput and the engine learned of each tablet's tools
/// (`ToolLedger`): a tool's first proximity-in, each proximity-out with the time of the event
/// before it, and each change of the engine's tools known to send no tilt, with when. A
/// report's window cut from a longer session starts knowing them. Per input it keeps one time
/// and compares one number; it reads the engine's set only when that set changed, which happens
/// at a tool's proximity at most.
struct ToolLedgerTap: PipelineStage {
    let recorder: FlightRecorder
    private var seenChanges: UInt64 = 0
    private var withoutTilt: Set<ToolKey> = []
    /// The time of each present device's last tool event; a device's entry leaves with it, so
    /// replugging for months does not grow it (device numbers are never reused).
    private var lastEventTime: [Int: UInt64] = [:]

    init(recorder: FlightRecorder) {
        self.recorder = recorder
    }

    mutating func run(_ input: PipelineInput, _ call: inout PipelineCall, _ out: inout OutboundBatch) {
        switch input {
        case .tool(let event, let device):
            if event.kind == .proximity, event.state == .proximityIn {
                recorder.toolProximityIn(event.tool, device: device, at: event.time)
            } else if event.kind == .proximity, event.state == .proximityOut {
                recorder.proximityOut(device: device, at: event.time, after: lastEventTime[device] ?? 0)
            }
            lastEventTime[device] = event.time
        case .deviceRemoved(let device, _):
            lastEventTime[device] = nil
        case .pad, .tick, .shutdown, .control, .resume:
            break
        }
        guard call.engine.toolsWithoutTiltChanges != seenChanges else { return }
        seenChanges = call.engine.toolsWithoutTiltChanges
        let now = call.engine.toolsWithoutTilt
        for key in withoutTilt.subtracting(now) { recorder.tiltLearned(key, withoutTilt: false, at: call.engine.now) }
        for key in now.subtracting(withoutTilt) { recorder.tiltLearned(key, withoutTilt: true, at: call.engine.now) }
        withoutTilt = now
    }
}
