/// What the user pressed, named as the config file names it: `stylus`, `stylus2`, `stylus3`
/// (BTN_STYLUS, BTN_STYLUS2, BTN_STYLUS3) or `pad-N` (libinput's pad button N), with
/// `-double` for a second press within the double-press interval.
public struct ActionTrigger: Sendable, Hashable {
    public enum Control: Sendable, Hashable {
        /// A barrel button: 1, 2 or 3 for BTN_STYLUS, BTN_STYLUS2, BTN_STYLUS3.
        case stylus(Int)
        /// A pad button by libinput's number.
        case pad(UInt32)
    }

    public var control: Control
    public var double: Bool

    public init(control: Control, double: Bool) {
        self.control = control
        self.double = double
    }

    /// BTN_STYLUS, BTN_STYLUS2, BTN_STYLUS3 (linux/input-event-codes.h).
    public static let stylusCodes: [UInt32] = [0x14b, 0x14c, 0x149]

    /// The barrel button of an evdev button code; nil for any other button.
    public static func stylusButton(code: UInt32) -> Int? {
        stylusCodes.firstIndex(of: code).map { $0 + 1 }
    }

    /// The config file's name of the control: `stylus`, `stylus2`, `stylus3`, `pad-N`.
    public var controlName: String {
        switch control {
        case .stylus(1): "stylus"
        case .stylus(let n): "stylus\(n)"
        case .pad(let n): "pad-\(n)"
        }
    }

    /// `controlName`, with `-double` for a double press.
    public var name: String { double ? controlName + "-double" : controlName }

    /// Reads a trigger name as `name` writes it; nil for anything else.
    public init?(name: String) {
        var base = Substring(name)
        let double = base.hasSuffix("-double")
        if double { base = base.dropLast(7) }
        if base == "stylus" {
            control = .stylus(1)
        } else if base == "stylus2" || base == "stylus3" {
            control = .stylus(base == "stylus2" ? 2 : 3)
        } else if base.hasPrefix("pad-"), let n = UInt32(base.dropFirst(4)), String(n) == base.dropFirst(4) {
            control = .pad(n)
        } else {
            return nil
        }
        self.double = double
    }
}

/// The user's preferred action for a trigger: one of Apple Pencil's preferred actions
/// (UIPencilPreferredAction), `ignore`, or a name of the user's own.
public enum PreferredAction {
    public static let standard = ["switchEraser", "switchPrevious", "showColorPalette", "showInkAttributes",
                                  "showContextualPalette", "ignore"]

    /// Whether `name` may be sent as an action: a standard name, or a custom one of
    /// 1 to 64 letters, digits, `.`, `_`, `-`, starting with a letter (so it needs no escaping).
    public static func isValid(_ name: String) -> Bool {
        guard let first = name.utf8.first, name.utf8.count <= 64 else { return false }
        func isLetter(_ b: UInt8) -> Bool { (b | 0x20) >= UInt8(ascii: "a") && (b | 0x20) <= UInt8(ascii: "z") }
        return isLetter(first) && name.utf8.allSatisfy {
            isLetter($0) || ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9")) || $0 == UInt8(ascii: ".")
                || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-")
        }
    }
}

/// `{"type":"action","action":NAME,"device":ID,"t":µs,"source":{"trigger":"stylus-double","kind":"stylus","button":331,"press":"double","tool":{…}}}`
/// on the `actions` channel. `t` is the time of the press that made the trigger.
public struct ActionMessage: Sendable, Hashable, WireMessage {
    public var action: String
    public var device: Int
    public var time: UInt64
    public var trigger: ActionTrigger
    /// The evdev code (stylus) or libinput's pad button number.
    public var button: UInt32
    /// The tool whose barrel button it was; nil for a pad.
    public var tool: ToolIdentity?

    public init(action: String, device: Int, time: UInt64, trigger: ActionTrigger, button: UInt32, tool: ToolIdentity?) {
        self.action = action
        self.device = device
        self.time = time
        self.trigger = trigger
        self.button = button
        self.tool = tool
    }

    public func write(to w: inout JSONWriter) {
        let kind: String
        if case .pad = trigger.control { kind = "pad" } else { kind = "stylus" }
        w.beginAction(action, device: device, time: time, trigger: trigger.name, kind: kind)
        w.field("button", button)
        w.field("press", plain: trigger.double ? "double" : "single")
        if let tool { w.key("tool"); w.write(tool) }
        w.raw("}")
        w.raw("}")
    }
}
