/// Counts tablet events stamped earlier than their device's previous event. The engine keeps its
/// clock (it never goes back), so nothing is lost, but a device or clock misbehaving must show:
/// the input loop logs the count.
struct EventOrder: PipelineStage {
    private(set) var eventsBackInTime = 0
    private var lastEventTime: [Int: UInt64] = [:]

    mutating func run(_ input: PipelineInput, _ call: inout PipelineCall, _ out: inout OutboundBatch) {
        switch input {
        case .tool(let event, let device):
            if let last = lastEventTime[device], event.time < last { eventsBackInTime += 1 }
            lastEventTime[device] = event.time
        case .deviceRemoved(let device, _):
            lastEventTime[device] = nil
        case .pad, .tick, .shutdown, .control, .resume:
            break
        }
    }
}
