/// `{"type":"proximity","device":ID,"t":µs,"state":"in"|"out","tool":{…}}` on the `frames` channel.
public struct ProximityMessage: Sendable, Hashable {
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

    public func jsonLine() -> String {
        "{\"type\":\"proximity\",\"device\":\(device),\"t\":\(time),\"state\":\"\(entering ? "in" : "out")\",\"tool\":{\"type\":\"\(tool.type.rawValue)\",\"serial\":\(tool.serial),\"id\":\(tool.id)}}"
    }
}

/// `{"type":"button","device":ID,"t":µs,"button":CODE,"state":"pressed"|"released","tool":{…}}` on `buttons`.
public struct ButtonMessage: Sendable, Hashable {
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

    public func jsonLine() -> String {
        "{\"type\":\"button\",\"device\":\(device),\"t\":\(time),\"button\":\(button),\"state\":\"\(pressed ? "pressed" : "released")\",\"tool\":{\"type\":\"\(tool.type.rawValue)\",\"serial\":\(tool.serial),\"id\":\(tool.id)}}"
    }
}
