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
    /// The time of each device's last tool event (devices are numbered from 1, a few at most).
    private var lastEventTime: [UInt64] = []

    init(recorder: FlightRecorder) {
        self.recorder = recorder
    }

    mutating func run(_ input: PipelineInput, _ call: inout PipelineCall, _ out: inout OutboundBatch) {
        if case .tool(let event, let device) = input, device >= 0 {
            if device >= lastEventTime.count { lastEventTime += Array(repeating: 0, count: device + 1 - lastEventTime.count) }
            if event.kind == .proximity, event.state == .proximityIn {
                recorder.toolProximityIn(event.tool, device: device, at: event.time)
            } else if event.kind == .proximity, event.state == .proximityOut {
                recorder.proximityOut(device: device, at: event.time, after: lastEventTime[device])
            }
            lastEventTime[device] = event.time
        }
        guard call.engine.toolsWithoutTiltChanges != seenChanges else { return }
        seenChanges = call.engine.toolsWithoutTiltChanges
        let now = call.engine.toolsWithoutTilt
        for key in withoutTilt.subtracting(now) { recorder.tiltLearned(key, withoutTilt: false, at: call.engine.now) }
        for key in now.subtracting(withoutTilt) { recorder.tiltLearned(key, withoutTilt: true, at: call.engine.now) }
        withoutTilt = now
    }
}
