import FoundationEssentials

/// The typed messages' JSON read back: each the inverse of its `write(to:)`. A field the
/// schema requires and the line lacks, or an unknown name where the schema lists the names
/// (a trigger, a state), fails the line rather than filling in a default.

extension PadMessage {
    init(from c: KeyedDecodingContainer<Keys>) throws {
        let kindName: String = try c.get("event")
        guard let kind = PadEvent.Kind(rawValue: kindName) else {
            throw DecodingError.dataCorruptedError(forKey: Keys("event"), in: c, debugDescription: "unknown pad event \(kindName)")
        }
        var event = PadEvent(kind: kind, time: try c.get("t"), number: 0, modeGroup: try c.get("group"), mode: try c.get("mode"))
        switch kind {
        case .button:
            event.number = try c.get("button")
            event.pressed = try c.get("state", as: String.self) == "pressed"
        case .ring, .strip:
            event.number = try c.get("number")
            event.position = try c.get("position")
            event.fromFinger = try c.maybe("source", as: String.self) == "finger"
        }
        self.init(device: try c.get("device"), event: event)
    }
}

extension PressureSourceMessage {
    init(from c: KeyedDecodingContainer<Keys>) throws {
        let stateName: String = try c.get("state")
        guard let state = State(rawValue: stateName) else {
            throw DecodingError.dataCorruptedError(forKey: Keys("state"), in: c, debugDescription: "unknown state \(stateName)")
        }
        self.init(device: try c.get("device"), state: state, serial: try c.maybe("serial"), latency: try c.maybe("latency"),
                  jitter: try c.maybe("jitter"), reason: try c.maybe("reason"))
        contactFrames = try c.maybe("contactFrames")
    }
}

/// An action's `source` object: a button's (`kind` stylus or pad) or a ring's or strip's.
struct ActionSourceFields: Decodable {
    var trigger: String
    var kind: String
    var button: UInt32?
    var tool: ToolIdentity?
    var group: UInt32?
    var mode: UInt32?

    func padMotion(action: String, device: Int, time: UInt64) throws -> PadMotionActionMessage? {
        guard kind == "ring" || kind == "strip" else { return nil }
        guard let trigger = PadMotionTrigger(name: trigger), trigger.control.rawValue == kind else {
            throw Self.corrupt("a \(kind) action's trigger \(self.trigger)")
        }
        return PadMotionActionMessage(action: action, device: device, time: time, trigger: trigger,
                                      modeGroup: group ?? 0, mode: mode ?? trigger.mode ?? 0)
    }

    func button(action: String, device: Int, time: UInt64) throws -> ActionMessage {
        guard let trigger = ActionTrigger(name: trigger) else { throw Self.corrupt("unknown trigger \(self.trigger)") }
        let isPad = if case .pad = trigger.control { true } else { false }
        guard kind == (isPad ? "pad" : "stylus") else { throw Self.corrupt("trigger \(self.trigger) with kind \(kind)") }
        guard let button else { throw Self.corrupt("a button action without its button") }
        return ActionMessage(action: action, device: device, time: time, trigger: trigger, button: button, tool: tool)
    }

    private static func corrupt(_ what: String) -> DecodingError {
        DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: what))
    }
}
