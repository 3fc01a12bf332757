/// A pad event on the `buttons` channel, as libinput reports it:
/// `{"type":"pad","device":ID,"t":µs,"event":"button","button":N,"state":"pressed"|"released","group":G,"mode":M}`,
/// `{"type":"pad","device":ID,"t":µs,"event":"ring"|"strip","number":N,"position":P,"source":"finger"|"unknown","group":G,"mode":M}`.
public struct PadMessage: Sendable, Hashable, WireMessage {
    public var device: Int
    public var event: PadEvent

    public init(device: Int, event: PadEvent) {
        self.device = device
        self.event = event
    }

    public func write(to w: inout JSONWriter) {
        w.raw("{")
        w.field("type", plain: "pad")
        w.field("device", device)
        w.field("t", event.time)
        w.field("event", plain: event.kind.rawValue)
        switch event.kind {
        case .button:
            w.field("button", event.number)
            w.field("state", plain: event.pressed ? "pressed" : "released")
        case .ring, .strip:
            w.field("number", event.number)
            w.field("position", event.position)
            w.field("source", plain: event.fromFinger ? "finger" : "unknown")
        }
        w.field("group", event.modeGroup)
        w.field("mode", event.mode)
        w.raw("}")
    }
}
