import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The client's request: `{"type":"subscribe","version":1,"channels":["frames","strokes"],"since":SEQ}`.
/// `since` (optional) asks for every finalized stroke with a sequence number
/// greater than SEQ that the history still holds, before live messages.
/// `predict` (optional) asks for the client's own prediction horizon (`PredictionRequest`).
/// `strokeParts` (optional, default false) says the client reassembles long strokes sent as
/// `strokePart` lines (`PartedStroke`); without it every stroke comes as one `stroke` line.
public struct SubscribeRequest: Sendable, Hashable, WireMessage {
    public var version: Int
    public var channels: ChannelSet
    public var since: UInt64?
    public var predict: PredictionRequest?
    public var strokeParts: Bool

    public init(version: Int = PenProtocol.version, channels: ChannelSet, since: UInt64? = nil,
                predict: PredictionRequest? = nil, strokeParts: Bool = false) {
        self.version = version
        self.channels = channels
        self.since = since
        self.predict = predict
        self.strokeParts = strokeParts
    }

    public func write(to w: inout JSONWriter) {
        w.raw("{")
        w.field("type", plain: "subscribe")
        w.field("version", version)
        w.key("channels"); w.write(channels)
        if let since { w.field("since", since) }
        if let predict { w.key("predict"); predict.write(to: &w) }
        if strokeParts { w.field("strokeParts", true) }
        w.raw("}")
    }

    /// Parses one client line. Client requests are rare, so a general JSON value is fine here.
    public static func parse(_ line: [UInt8]) -> Result<SubscribeRequest, ErrorMessage> {
        guard let dict = JSONValue.object(line: line) else {
            return .failure(ErrorMessage(code: .malformed, message: "expected one JSON object per line"))
        }
        return parse(line, object: dict)
    }

    /// Parses a line already read as a JSON object (`ClientRequest`): only the numeric fields
    /// are decoded again, strictly by type.
    static func parse(_ line: [UInt8], object dict: [String: JSONValue]) -> Result<SubscribeRequest, ErrorMessage> {
        guard let type = dict["type"]?.string else {
            return .failure(ErrorMessage(code: .malformed, message: "missing \"type\""))
        }
        guard type == "subscribe" else {
            return .failure(ErrorMessage(code: .unknownRequest, message: "unknown request type \"\(type)\""))
        }
        guard dict["version"] != nil else {
            return .failure(ErrorMessage(code: .malformed, message: "subscribe needs \"version\""))
        }
        // Typed, strictly: a Double would take 1.5 or 2^64+1 as a version.
        guard let typed = try? JSONDecoder().decode(StrictFields.self, from: Data(line)), let version = typed.version else {
            return .failure(ErrorMessage(code: .malformed,
                                         message: "\"version\" must be an integer and \"since\" a non-negative integer below 2^64"))
        }
        guard version == PenProtocol.version else {
            return .failure(ErrorMessage(code: .unsupportedVersion,
                                         message: "protocol version \(version) is not supported; this server speaks \(PenProtocol.version)"))
        }
        var channels: ChannelSet = []
        if let names = dict["channels"] {
            guard case .array(let list) = names else {
                return .failure(ErrorMessage(code: .malformed, message: "\"channels\" must be an array of names"))
            }
            for item in list {
                guard let name = item.string, let channel = SubscriptionChannel(rawValue: name) else {
                    return .failure(ErrorMessage(code: .unknownRequest, message: "unknown channel \(item.messageText)"))
                }
                channels.insert(ChannelSet(channel))
            }
        } else {
            channels = .all
        }
        var predict: PredictionRequest?
        if let raw = dict["predict"] {
            switch PredictionRequest.parse(raw) {
            case .success(let request): predict = request
            case .failure(let error): return .failure(error)
            }
        }
        var strokeParts = false
        if let raw = dict["strokeParts"] {
            guard case .bool(let value) = raw else {
                return .failure(ErrorMessage(code: .malformed, message: "\"strokeParts\" must be true or false"))
            }
            strokeParts = value
        }
        return .success(SubscribeRequest(version: version, channels: channels, since: typed.since, predict: predict,
                                         strokeParts: strokeParts))
    }

    /// The numeric fields, decoded by type: a bool, a fraction, an out-of-range number or (for
    /// `since`) null is an error.
    private struct StrictFields: Decodable {
        var version: Int?
        var since: UInt64?

        private enum CodingKeys: String, CodingKey { case version, since }

        init(from decoder: any Decoder) throws {
            let fields = try decoder.container(keyedBy: CodingKeys.self)
            version = try fields.decodeIfPresent(Int.self, forKey: .version)
            // decodeIfPresent would take `"since":null` as no `since`, that is, as "live only":
            // a `since` that is there must be a number.
            since = fields.contains(.since) ? try fields.decode(UInt64.self, forKey: .since) : nil
        }
    }
}
