/// A step of motion on a pad's ring or strip, named as the config file names it:
/// `ring-N-cw`, `ring-N-ccw` (clockwise, counter-clockwise), `strip-N-up`, `strip-N-down`
/// (towards 0, towards 1 of libinput's strip position), each also with `-mode-M` for one mode of
/// the control's mode group only, as GNOME maps a ring or strip per pad mode.
public struct PadMotionTrigger: Sendable, Hashable {
    public enum Control: String, Sendable, Hashable {
        case ring, strip
    }

    public var control: Control
    /// libinput's ring or strip number, from 0.
    public var number: UInt32
    /// Clockwise on a ring, down (towards 1) on a strip: the way libinput's position grows.
    public var increasing: Bool
    /// The one mode this trigger is for; nil for every mode.
    public var mode: UInt32?

    public init(control: Control, number: UInt32, increasing: Bool, mode: UInt32? = nil) {
        self.control = control
        self.number = number
        self.increasing = increasing
        self.mode = mode
    }

    /// `cw`, `ccw`, `up` or `down`.
    public var direction: String {
        switch control {
        case .ring: increasing ? "cw" : "ccw"
        case .strip: increasing ? "down" : "up"
        }
    }

    public var name: String {
        let base = "\(control.rawValue)-\(number)-\(direction)"
        guard let mode else { return base }
        return base + "-mode-\(mode)"
    }

    /// Reads a trigger name as `name` writes it; nil for anything else.
    public init?(name: String) {
        let parts = name.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3 || (parts.count == 5 && parts[3] == "mode"),
              let control = Control(rawValue: String(parts[0])),
              let number = Self.number(parts[1]) else { return nil }
        switch (control, parts[2]) {
        case (.ring, "cw"), (.strip, "down"): increasing = true
        case (.ring, "ccw"), (.strip, "up"): increasing = false
        default: return nil
        }
        if parts.count == 5 {
            guard let mode = Self.number(parts[4]) else { return nil }
            self.mode = mode
        } else {
            mode = nil
        }
        self.control = control
        self.number = number
    }

    /// A decimal number as `String(n)` writes it (no sign, no leading zeros).
    private static func number(_ text: Substring) -> UInt32? {
        guard let n = UInt32(text), String(n) == text else { return nil }
        return n
    }
}

/// `{"type":"action","action":NAME,"device":ID,"t":µs,"source":{"trigger":"ring-0-cw","kind":"ring","number":0,"direction":"cw","group":G,"mode":M}}`
/// on the `actions` channel: one message per step of motion, `t` the time of the pad event that
/// completed the step.
public struct PadMotionActionMessage: Sendable, Hashable, WireMessage {
    public var action: String
    public var device: Int
    public var time: UInt64
    /// The trigger the config file mapped (with `-mode-M` when a mode's own key matched).
    public var trigger: PadMotionTrigger
    public var modeGroup: UInt32
    public var mode: UInt32

    public init(action: String, device: Int, time: UInt64, trigger: PadMotionTrigger, modeGroup: UInt32, mode: UInt32) {
        self.action = action
        self.device = device
        self.time = time
        self.trigger = trigger
        self.modeGroup = modeGroup
        self.mode = mode
    }

    public func write(to w: inout JSONWriter) {
        w.beginAction(action, device: device, time: time, trigger: trigger.name, kind: trigger.control.rawValue)
        w.field("number", trigger.number)
        w.field("direction", plain: trigger.direction)
        w.field("group", modeGroup)
        w.field("mode", mode)
        w.raw("}")
        w.raw("}")
    }
}

extension JSONWriter {
    /// An `action` message up to its source's `trigger` and `kind`; the caller adds the source's
    /// other fields and closes both objects.
    mutating func beginAction(_ action: String, device: Int, time: UInt64, trigger: String, kind: String) {
        raw("{")
        field("type", plain: "action")
        field("action", plain: action)
        field("device", device)
        field("t", time)
        key("source")
        raw("{")
        field("trigger", plain: trigger)
        field("kind", plain: kind)
    }
}
