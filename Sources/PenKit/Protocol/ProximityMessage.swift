/// `{"type":"proximity","device":ID,"t":µs,"state":"in"|"out","tool":{…}}` on the `frames` channel.
public struct ProximityMessage: Sendable, Hashable, WireMessage {
    public var device: Int
    public var time: UInt64
    public var entering: Bool
    public var tool: ToolIdentity

    public init(device: Int, time: UInt64, entering: Bool, tool: ToolIdentity) {
        self.device = device
        self.time = time
        self.entering = entering
        self.tool = tool
    }

    public func write(to w: inout JSONWriter) {
        w.raw("{")
        w.field("type", plain: "proximity")
        w.field("device", device)
        w.field("t", time)
        w.field("state", plain: entering ? "in" : "out")
        w.key("tool"); w.write(tool)
        w.raw("}")
    }
}

/// `{"type":"button","device":ID,"t":µs,"button":CODE,"state":"pressed"|"released","tool":{…}}` on `buttons`.
public struct ButtonMessage: Sendable, Hashable, WireMessage {
    public var device: Int
    public var time: UInt64
    public var button: UInt32
    public var pressed: Bool
    public var tool: ToolIdentity

    public init(device: Int, time: UInt64, button: UInt32, pressed: Bool, tool: ToolIdentity) {
        self.device = device
        self.time = time
        self.button = button
        self.pressed = pressed
        self.tool = tool
    }

    public func write(to w: inout JSONWriter) {
        w.raw("{")
        w.field("type", plain: "button")
        w.field("device", device)
        w.field("t", time)
        w.field("button", button)
        w.field("state", plain: pressed ? "pressed" : "released")
        w.key("tool"); w.write(tool)
        w.raw("}")
    }
}
