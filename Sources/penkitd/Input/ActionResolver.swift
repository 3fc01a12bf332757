import PenKit

/// Turns button presses into the user's preferred actions (`ActionMap`) on the `actions` channel.
///
/// A control whose `-double` trigger is mapped holds its single press back until the
/// double-press interval has passed without a second press, as UIKit holds a tap until it knows
/// it is not a double tap: a double press then sends only the double action, never a single one
/// first. A control with no double mapping has nothing to wait for, so its single action goes out
/// at the press. Either way an action's `t` is the time of the press that made it. Runs on the
/// input thread; costs nothing while no press is held back.
struct ActionResolver {
    private var map: ActionMap
    /// Presses that may still become the first half of a double press, oldest first (rarely more than one).
    private var held: [Press] = []

    struct Press {
        var device: Int
        var control: ActionTrigger.Control
        var time: UInt64
        var button: UInt32
        var tool: ToolIdentity?
    }

    init(map: ActionMap = ActionMap()) { self.map = map }

    /// A new map: presses held under the old one are settled by it first.
    mutating func replace(_ newMap: ActionMap, into out: inout OutboundBatch) {
        releaseAll(into: &out)
        map = newMap
    }

    mutating func press(_ press: Press, into out: inout OutboundBatch) {
        advance(to: press.time, into: &out)
        let double = ActionTrigger(control: press.control, double: true)
        guard map.actions[double] != nil else {
            send(press, double: false, into: &out)
            return
        }
        if let index = held.firstIndex(where: { $0.device == press.device && $0.control == press.control }) {
            held.remove(at: index)
            send(press, double: true, into: &out)
        } else {
            held.append(press)
        }
    }

    /// Sends the single action of every held press whose interval has passed by `time`.
    mutating func advance(to time: UInt64, into out: inout OutboundBatch) {
        guard !held.isEmpty else { return }
        let interval = map.doublePressMicroseconds
        releaseHeld(where: { time > $0.time && time - $0.time > interval }, into: &out)
    }

    /// A device went away: its held presses were real single presses; they go out now.
    mutating func release(device: Int, into out: inout OutboundBatch) {
        releaseHeld(where: { $0.device == device }, into: &out)
    }

    /// Shutdown or a new map: every held press goes out as a single press.
    mutating func releaseAll(into out: inout OutboundBatch) {
        releaseHeld(where: { _ in true }, into: &out)
    }

    private mutating func releaseHeld(where due: (Press) -> Bool, into out: inout OutboundBatch) {
        var kept: [Press] = []
        for press in held {
            if due(press) { send(press, double: false, into: &out) } else { kept.append(press) }
        }
        held = kept
    }

    private func send(_ press: Press, double: Bool, into out: inout OutboundBatch) {
        let trigger = ActionTrigger(control: press.control, double: double)
        guard let action = map.actions[trigger] else { return }
        out.append(.actions, ActionMessage(action: action, device: press.device, time: press.time,
                                           trigger: trigger, button: press.button, tool: press.tool))
    }
}
