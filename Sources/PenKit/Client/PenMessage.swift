import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// One line as the client received it: its text and when it arrived (CLOCK_MONOTONIC µs).
public struct ReceivedLine: Sendable {
    public var text: String
    public var receivedAt: UInt64

    public init(text: String, receivedAt: UInt64) {
        self.text = text
        self.receivedAt = receivedAt
    }

    /// The value of the first top-level or nested `"key":` holding an unsigned integer,
    /// found without a JSON parser (the benchmarks read frame times this way).
    public func firstUnsigned(_ key: String) -> UInt64? {
        // Scans the text's own UTF-8 in place: the latency benchmark runs this for every frame
        // in every client, on the cores penkitd needs, so it must not allocate.
        var text = self.text
        return text.withUTF8 { bytes -> UInt64? in
            var needle = "\"\(key)\":"
            return needle.withUTF8 { needle -> UInt64? in
                guard !needle.isEmpty, bytes.count >= needle.count else { return nil }
                var i = 0
                while i + needle.count <= bytes.count {
                    var matches = true
                    for k in 0..<needle.count where bytes[i + k] != needle[k] { matches = false; break }
                    if matches {
                        var value: UInt64 = 0
                        var j = i + needle.count
                        var digits = 0
                        while j < bytes.count, bytes[j] >= 48, bytes[j] <= 57 {
                            value = value &* 10 &+ UInt64(bytes[j] - 48)
                            j += 1
                            digits += 1
                        }
                        return digits > 0 ? value : nil
                    }
                    i += 1
                }
                return nil
            }
        }
    }
}

/// A server message, typed. Stroke-engine messages (frame, began, update,
/// ended, stroke) are decoded into the engine's own types.
public enum PenMessage: Sendable {
    // Each case carries the type penkitd writes the line with, read by that type's own decoder
    // beside its writer: a field added to a message is added in one Swift file, and `wire` writes
    // back what was read (ProtocolExampleTests checks it on every example of the schema).
    case hello(HelloMessage)
    /// Its `devices`: with the `devices` channel, the devices read when the subscription took
    /// effect (nil without it, or from a server older than this field).
    case subscribed(SubscribedMessage)
    case device(DeviceChangeMessage)
    case proximity(ProximityMessage)
    case button(ButtonMessage)
    case engine(EngineMessage)
    /// A pad's button, ring or strip, as libinput reported it (`buttons` channel).
    case pad(PadMessage)
    /// A barrel or pad button's preferred action (`actions` channel): switch tools on it, as
    /// PencilKit does on UIPencilInteraction's preferred action.
    case action(ActionMessage)
    /// A ring's or strip's action (`actions` channel).
    case padMotionAction(PadMotionActionMessage)
    /// A device's force now comes from a second source, or from the tablet again (`devices` channel).
    case pressureSource(PressureSourceMessage)
    case dropped(DroppedMessage)
    /// The answer to a `status` request: live figures per tablet and the settings in force.
    case status(StatusMessage)
    /// The answer to a `settings` request: the changes are saved and being applied.
    case settingsSaved(SettingsSavedMessage)
    /// The client fell too far behind on strokes and is cut off: reconnect and subscribe with
    /// `since: lastSentSeq` (nil from a server that does not say).
    case overflow(lastSentSeq: UInt64?, message: String)
    /// Any other error; `code` is ErrorMessage.Code's raw value, or a newer server's code.
    case error(code: String, message: String, fatal: Bool)
    case shutdown(ShutdownMessage)
    /// A message type this client does not know (a newer server); kept, not fatal.
    case unknown(type: String, JSONValue)

    /// Whether the server closes the connection after this message.
    public var isFatal: Bool {
        switch self {
        case .error(_, _, let fatal): fatal
        case .overflow: true
        default: false
        }
    }

    /// Decodes one line, parsing it once; nil when it is not a JSON object with a
    /// `type`, or a known type whose required fields are missing or malformed.
    public init?(line: String) {
        guard let message = try? JSONDecoder().decode(PenMessage.self, from: Data(line.utf8)) else { return nil }
        self = message
    }
}

/// A received message as the type penkitd writes it with: writing it gives back the line's
/// fields (what this client keeps of a line, made visible), and a tool that relays or records
/// messages can write them again.
extension PenMessage {
    /// Nil for `.unknown` (a newer server's type, kept as its JSON), and for an error whose code
    /// this client does not know.
    public var wire: (any WireMessage)? {
        switch self {
        case .hello(let m): m
        case .subscribed(let m): m
        case .device(let m): m
        case .proximity(let m): m
        case .button(let m): m
        case .engine(let m): m
        case .pad(let m): m
        case .action(let m): m
        case .padMotionAction(let m): m
        case .pressureSource(let m): m
        case .dropped(let m): m
        case .status(let m): m
        case .settingsSaved(let m): m
        case .overflow(let lastSentSeq, let message):
            ErrorMessage(code: .overflow, message: message, fatal: true, lastSentSeq: lastSentSeq)
        case .error(let code, let message, let fatal):
            ErrorMessage.Code(rawValue: code).map { ErrorMessage(code: $0, message: message, fatal: fatal) }
        case .shutdown(let m): m
        case .unknown: nil
        }
    }
}

/// The one decoding path for server lines: each type is read in one place.
/// Unknown keys are ignored, so that later protocol additions stay readable.
extension PenMessage: Decodable {
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        let type: String = try c.get("type")
        switch type {
        case "hello":
            self = .hello(try HelloMessage(from: decoder))
        case "subscribed":
            self = .subscribed(try SubscribedMessage(from: decoder))
        case "device":
            let change: String = try c.get("change")
            guard let kind = DeviceChangeMessage.Change(rawValue: change) else {
                throw DecodingError.dataCorruptedError(forKey: Keys("change"), in: c, debugDescription: "unknown change \(change)")
            }
            self = .device(DeviceChangeMessage(change: kind, device: try c.get("device")))
        case "proximity":
            self = .proximity(ProximityMessage(device: try c.maybe("device") ?? 0, time: try c.maybe("t") ?? 0,
                                               entering: try c.maybe("state", as: String.self) == "in", tool: try c.get("tool")))
        case "button":
            self = .button(ButtonMessage(device: try c.maybe("device") ?? 0, time: try c.maybe("t") ?? 0,
                                         button: try c.maybe("button") ?? 0,
                                         pressed: try c.maybe("state", as: String.self) == "pressed", tool: try c.get("tool")))
        case "frame", "began", "update", "ended", "stroke":
            self = .engine(try EngineMessage(from: decoder))
        case "pad":
            self = .pad(try PadMessage(from: c))
        case "action":
            let source: ActionSourceFields = try c.get("source")
            if let motion = try source.padMotion(action: try c.get("action"), device: try c.get("device"), time: try c.get("t")) {
                self = .padMotionAction(motion)
            } else {
                self = .action(try source.button(action: try c.get("action"), device: try c.get("device"), time: try c.get("t")))
            }
        case "pressure-source":
            self = .pressureSource(try PressureSourceMessage(from: c))
        case "dropped":
            self = .dropped(DroppedMessage(frames: try c.maybe("frames") ?? 0, updates: try c.maybe("updates") ?? 0,
                                           buttons: try c.maybe("buttons") ?? 0))
        case "error":
            let code: String = try c.maybe("code") ?? ""
            if code == ErrorMessage.Code.overflow.rawValue {
                self = .overflow(lastSentSeq: try c.maybe("lastSentSeq"), message: try c.maybe("message") ?? "")
            } else {
                self = .error(code: code, message: try c.maybe("message") ?? "", fatal: try c.maybe("fatal") ?? false)
            }
        case "shutdown":
            self = .shutdown(try ShutdownMessage(from: decoder))
        case "status":
            self = .status(try StatusMessage(from: decoder))
        case "settings-saved":
            self = .settingsSaved(try SettingsSavedMessage(from: decoder))
        default:
            self = .unknown(type: type, try JSONValue(from: decoder))
        }
    }
}

extension DeviceInfo: Decodable {
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        self.init(id: try c.get("id"), name: try c.maybe("name") ?? "", vendor: try c.maybe("vendor") ?? 0,
                  product: try c.maybe("product") ?? 0, source: try c.maybe("source") ?? "")
        if let width: Double = try c.maybe("width"), let height: Double = try c.maybe("height") {
            let resolution = try c.maybe("resolution", as: [String: Int].self) ?? [:]
            geometry = TabletGeometry(width: width, height: height, resolutionX: resolution["x"] ?? 0,
                                      resolutionY: resolution["y"] ?? 0, axes: try c.maybe("axes") ?? [],
                                      tools: try c.maybe("tools") ?? [], buttons: try c.maybe("buttons") ?? [],
                                      integration: try c.maybe("integration") ?? [], model: try c.maybe("model"))
        }
        if let space = try c.maybe("mapping", as: [String: Double].self), let width = space["width"],
           let height = space["height"] {
            mapping = MappedSpace(width: width, height: height, rotation: Int(space["rotation"] ?? 0))
        }
        pad = try c.maybe("pad", as: PadCapabilities.self)
    }
}

/// Any JSON value, for messages this client does not know yet.
public enum JSONValue: Sendable, Hashable, Decodable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    public init(from decoder: Decoder) throws {
        let c = try decoder.singleValueContainer()
        if c.decodeNil() { self = .null }
        else if let b = try? c.decode(Bool.self) { self = .bool(b) }
        else if let n = try? c.decode(Double.self) { self = .number(n) }
        else if let s = try? c.decode(String.self) { self = .string(s) }
        else if let a = try? c.decode([JSONValue].self) { self = .array(a) }
        else { self = .object(try c.decode([String: JSONValue].self)) }
    }

    public subscript(key: String) -> JSONValue? {
        if case .object(let o) = self { o[key] } else { nil }
    }

    public var double: Double? { if case .number(let n) = self { n } else { nil } }
    public var string: String? { if case .string(let s) = self { s } else { nil } }
}
