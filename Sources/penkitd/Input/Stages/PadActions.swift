import PenKit

/// Buttons and pads, on the buttons channel: each stylus button's `button` line and each pad
/// event's raw `pad` line, then the user's preferred action (`ActionMap`) for a button press or a
/// step of a ring or strip, on the `actions` channel. A reloaded map is picked up at the next press
/// or pad motion. Held single presses go out once their double-press interval has passed.
struct PadActions: PipelineStage {
    private let shared: SharedSetting<ActionMap>?
    private var seen: UInt64 = .max
    private var presses = ActionResolver()
    private var motions = PadMotionResolver()

    init(shared: SharedSetting<ActionMap>?) { self.shared = shared }

    mutating func run(_ input: PipelineInput, _ call: inout PipelineCall, _ out: inout OutboundBatch) {
        switch input {
        case .tool(let event, let device):
            presses.advance(to: event.time, into: &out)
            guard event.kind == .button, let button = event.button else { return }
            out.append(.buttons, ButtonMessage(device: device, time: event.time, button: button,
                                               pressed: event.state == .pressed, tool: event.tool))
            if event.state == .pressed {
                stylusButtonPressed(button, time: event.time, tool: event.tool, device: device, into: &out)
            }
        case .pad(let event, let device):
            out.append(.buttons, PadMessage(device: device, event: event))
            consume(event, device: device, into: &out)
        case .tick(let time):
            presses.advance(to: time, into: &out)
        case .deviceRemoved(let device, _):
            presses.release(device: device, into: &out)
            motions.remove(device: device)
        case .shutdown:
            presses.releaseAll(into: &out)
        case .control, .resume:
            break
        }
    }

    /// A stylus button went down: a barrel button's press may be an action. The caller has
    /// advanced to the event's time first, and sent the button's own message.
    private mutating func stylusButtonPressed(_ button: UInt32, time: UInt64, tool: ToolIdentity, device: Int,
                                      into out: inout OutboundBatch) {
        guard let barrel = ActionTrigger.stylusButton(code: button) else { return }
        pressed(ActionResolver.Press(device: device, control: .stylus(barrel), time: time,
                                     button: button, tool: tool), into: &out)
    }

    /// A pad's event: a button press, or a step of a ring or strip.
    private mutating func consume(_ event: PadEvent, device: Int, into out: inout OutboundBatch) {
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
