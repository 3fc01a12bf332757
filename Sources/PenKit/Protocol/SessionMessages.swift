/// `{"type":"subscribed","channels":[…],"replaying":N}`: the server's answer to
/// `subscribe`; live messages follow it, after the N replayed history strokes.
public struct SubscribedMessage: Sendable, Hashable {
    public var channels: ChannelSet
    public var replaying: Int

    public init(channels: ChannelSet, replaying: Int) {
        self.channels = channels
        self.replaying = replaying
    }

    public func jsonLine() -> String {
        let names = channels.channels.map { "\"\($0.rawValue)\"" }.joined(separator: ",")
        return "{\"type\":\"subscribed\",\"channels\":[\(names)],\"replaying\":\(replaying)}"
    }
}

/// `{"type":"shutdown","reason":"…"}`: the server is stopping; open strokes were
/// sent as cancelled before this line, and the connection closes after it.
public struct ShutdownMessage: Sendable, Hashable {
    public var reason: String
    public init(reason: String) { self.reason = reason }
    public func jsonLine() -> String { "{\"type\":\"shutdown\",\"reason\":\(JSONText.quote(reason))}" }
}
