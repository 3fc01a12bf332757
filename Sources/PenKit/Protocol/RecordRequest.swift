import FoundationEssentials

/// `{"type":"record","version":1,"seconds":N}`: asks penkitd's flight recorder for the last N
/// seconds (all it holds when `seconds` is left out). penkitd answers with one `recording` line,
/// `recording-events` and `recording-digests` lines, and `recording-end` (docs/protocol.md);
/// `penkit record` writes them as a bug report (docs/bug-reports.md).
public struct RecordRequest: Sendable, Hashable, WireMessage {
    public var version: Int
    public var seconds: Int?

    /// The longest window anyone may ask for, as the recorder's own bound (`flight-recorder`).
    public static let maxSeconds = 600

    public init(version: Int = PenProtocol.version, seconds: Int? = nil) {
        self.version = version
        self.seconds = seconds
    }

    public func write(to w: inout JSONWriter) {
        w.raw("{")
        w.field("type", plain: "record")
        w.field("version", version)
        if let seconds { w.field("seconds", seconds) }
        w.raw("}")
    }

    public static func parse(_ line: [UInt8]) -> Result<RecordRequest, ErrorMessage> {
        guard let fields = try? JSONDecoder().decode(Fields.self, from: Data(line)), fields.type == "record" else {
            return .failure(ErrorMessage(code: .malformed, message: "a record request is {\"type\":\"record\",\"version\":1,\"seconds\":N}"))
        }
        guard fields.version == PenProtocol.version else {
            return .failure(ErrorMessage(code: .unsupportedVersion, message: "this penkitd speaks version \(PenProtocol.version)"))
        }
        if let seconds = fields.seconds, seconds < 1 || seconds > maxSeconds {
            return .failure(ErrorMessage(code: .outOfRange, message: "\"seconds\" must be from 1 to \(maxSeconds)"))
        }
        return .success(RecordRequest(version: fields.version, seconds: fields.seconds))
    }

    private struct Fields: Decodable {
        var type: String
        var version: Int
        var seconds: Int?
    }
}
