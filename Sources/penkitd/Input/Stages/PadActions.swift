import PenKit

/// The user's preferred actions (`ActionMap`) from stylus buttons, pad buttons, rings and strips,
/// on the `actions` channel. A reloaded map is picked up at the next press or pad motion.
struct PadActions {
    private let shared: SharedSetting<ActionMap>?
    private var seen: UInt64 = .max
    private var presses = ActionResolver()
    private var motions = PadMotionResolver()

    init(shared: SharedSetting<ActionMap>?) { self.shared = shared }

    /// A stylus button went down: a barrel button's press may be an action. The caller has
    /// advanced to the event's time first, and sent the button's own message.
    mutating func stylusButtonPressed(_ button: UInt32, time: UInt64, tool: ToolIdentity, device: Int,
                                      into out: inout OutboundBatch) {
        guard let barrel = ActionTrigger.stylusButton(code: button) else { return }
        pressed(ActionResolver.Press(device: device, control: .stylus(barrel), time: time,
                                     button: button, tool: tool), into: &out)
    }

    /// A pad's event: a button press, or a step of a ring or strip.
    mutating func consume(_ event: PadEvent, device: Int, into out: inout OutboundBatch) {
        if event.kind != .button {
            refresh(into: &out)
            motions.consume(event, device: device, into: &out)
        }
        if event.kind == .button, event.pressed {
            pressed(ActionResolver.Press(device: device, control: .pad(event.number), time: event.time,
                                         button: event.number, tool: nil), into: &out)
        } else {
            presses.advance(to: event.time, into: &out)
        }
    }

    /// Held single presses whose double-press interval has passed by `time` go out.
    mutating func advance(to time: UInt64, into out: inout OutboundBatch) { presses.advance(to: time, into: &out) }

    mutating func remove(device: Int, into out: inout OutboundBatch) {
        presses.release(device: device, into: &out)
        motions.remove(device: device)
    }

    mutating func releaseAll(into out: inout OutboundBatch) { presses.releaseAll(into: &out) }

    private mutating func pressed(_ press: ActionResolver.Press, into out: inout OutboundBatch) {
        refresh(into: &out)
        presses.press(press, into: &out)
    }

    private mutating func refresh(into out: inout OutboundBatch) {
        guard let map = shared?.changed(since: &seen) else { return }
        presses.replace(map, into: &out)
        motions.replace(map)
    }
}
