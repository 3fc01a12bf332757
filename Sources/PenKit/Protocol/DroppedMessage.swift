/// `{"type":"dropped","frames":N,"updates":N,"buttons":N}`: live messages the
/// server dropped for this client because it was not reading fast enough. Sent
/// once the client catches up, before the next live message.
public struct DroppedMessage: Sendable, Hashable, WireMessage {
    public var frames: UInt64
    public var updates: UInt64
    public var buttons: UInt64

    public init(frames: UInt64 = 0, updates: UInt64 = 0, buttons: UInt64 = 0) {
        self.frames = frames
        self.updates = updates
        self.buttons = buttons
    }

    public var isEmpty: Bool { frames == 0 && updates == 0 && buttons == 0 }

    public func write(to w: inout JSONWriter) {
        w.raw("{")
        w.field("type", plain: "dropped")
        w.field("frames", frames)
        w.field("updates", updates)
        w.field("buttons", buttons)
        w.raw("}")
    }
}
