/// The first line the server sends on every connection.
/// `{"type":"hello","version":1,"server":"penkitd","serverVersion":"0.1.0","devices":[…],"settings":{…},"lastSeq":N,"oldestSeq":M}`
public struct HelloMessage: Sendable, Hashable, WireMessage {
    public var version: Int = PenProtocol.version
    public var server: String = "penkitd"
    /// penkitd's release (`PenkitVersion`), for bug reports; the protocol is `version`.
    public var serverVersion: String = PenkitVersion.string
    public var devices: [DeviceInfo]
    /// Settings a client may care about (smoothing, prediction horizon, …), as strings.
    public var settings: [String: String]
    /// Sequence number of the last finalized stroke, 0 before the first.
    public var lastSeq: UInt64
    /// Oldest sequence number still in the history (`since` can reach back to oldestSeq − 1); 0 when empty.
    public var oldestSeq: UInt64

    public init(devices: [DeviceInfo], settings: [String: String], lastSeq: UInt64, oldestSeq: UInt64) {
        self.devices = devices
        self.settings = settings
        self.lastSeq = lastSeq
        self.oldestSeq = oldestSeq
    }

    public func write(to w: inout JSONWriter) {
        w.raw("{")
        w.field("type", plain: "hello")
        w.field("version", version)
        w.field("server", string: server)
        w.field("serverVersion", string: serverVersion)
        w.field("devices", devices: devices)
        w.key("settings"); w.raw("{")
        for (index, key) in settings.keys.sorted().enumerated() {
            if index > 0 { w.byte(UInt8(ascii: ",")) }
            w.string(key); w.byte(UInt8(ascii: ":")); w.string(settings[key]!)
        }
        w.raw("}")
        w.field("lastSeq", lastSeq)
        w.field("oldestSeq", oldestSeq)
        w.raw("}")
    }
}

/// The client's reader of the same line (`PenMessage.hello`): every field the writer above writes,
/// so that a field added here is added to both (ProtocolExampleTests reads the schema's examples back).
extension HelloMessage: Decodable {
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        self.init(devices: try c.maybe("devices") ?? [], settings: try c.maybe("settings") ?? [:],
                  lastSeq: try c.maybe("lastSeq") ?? 0, oldestSeq: try c.maybe("oldestSeq") ?? 0)
        version = try c.maybe("version") ?? 0
        server = try c.maybe("server") ?? ""
        serverVersion = try c.maybe("serverVersion") ?? ""
    }
}
