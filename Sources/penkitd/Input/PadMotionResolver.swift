import PenKit

/// Turns a finger's motion on pad rings and strips into the user's preferred actions
/// (`action-ring-N-cw` …, `ActionMap.motionAction`): one `action` message per step (`PadMotion`),
/// at the time of the pad event that completed it. Runs on the input thread.
struct PadMotionResolver {
    private var map = ActionMap()
    private var motion = PadMotion()

    /// A reloaded map applies from the next event; a motion under way keeps its count.
    mutating func replace(_ newMap: ActionMap) { map = newMap }

    mutating func consume(_ event: PadEvent, device: Int, into out: inout OutboundBatch) {
        let control: PadMotionTrigger.Control
        switch event.kind {
        case .ring: control = .ring
        case .strip: control = .strip
        case .button: return
        }
        let steps = motion.steps(of: event, device: device,
                                 step: control == .ring ? map.ringStepDegrees : map.stripStep)
        guard steps != 0,
              let (action, trigger) = map.motionAction(
                PadMotionTrigger(control: control, number: event.number, increasing: steps > 0), mode: event.mode)
        else { return }
        let message = PadMotionActionMessage(action: action, device: device, time: event.time, trigger: trigger,
                                             modeGroup: event.modeGroup, mode: event.mode)
        for _ in 0..<abs(steps) { out.append(.actions, message) }
    }

    mutating func remove(device: Int) { motion.remove(device: device) }
}
