import FoundationEssentials

/// `{"type":"status","version":1}`: asks penkitd for its live figures per tablet and its
/// settings in force with their origins. penkitd answers with one `status` line
/// (`StatusMessage`); `penkit doctor` shows it. Any client the socket admits may ask.
public struct StatusRequest: Sendable, Hashable, WireMessage {
    public var version: Int

    public init(version: Int = PenProtocol.version) { self.version = version }

    public func write(to w: inout JSONWriter) {
        w.raw("{")
        w.field("type", plain: "status")
        w.field("version", version)
        w.raw("}")
    }

    public static func parse(_ line: [UInt8]) -> Result<StatusRequest, ErrorMessage> {
        guard let fields = try? JSONDecoder().decode(Fields.self, from: Data(line)), fields.type == "status" else {
            return .failure(ErrorMessage(code: .malformed, message: "a status request is {\"type\":\"status\",\"version\":1}"))
        }
        guard fields.version == PenProtocol.version else {
            return .failure(ErrorMessage(code: .unsupportedVersion, message: "this penkitd speaks version \(PenProtocol.version)"))
        }
        return .success(StatusRequest(version: fields.version))
    }

    private struct Fields: Decodable {
        var type: String
        var version: Int
    }
}
