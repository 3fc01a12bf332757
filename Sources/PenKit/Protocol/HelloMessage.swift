/// The first line the server sends on every connection.
/// `{"type":"hello","version":1,"server":"penkitd","serverVersion":"0.1.0","devices":[…],"settings":{…},"lastSeq":N,"oldestSeq":M}`
public struct HelloMessage: Sendable, Hashable {
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

    public func jsonLine() -> String {
        var s = "{\"type\":\"hello\",\"version\":\(version),\"server\":\(JSONText.quote(server)),\"serverVersion\":\(JSONText.quote(serverVersion)),\"devices\":["
        s += devices.map { $0.jsonObject() }.joined(separator: ",")
        s += "],\"settings\":{"
        s += settings.keys.sorted().map { "\(JSONText.quote($0)):\(JSONText.quote(settings[$0]!))" }.joined(separator: ",")
        s += "},\"lastSeq\":\(lastSeq),\"oldestSeq\":\(oldestSeq)}"
        return s
    }
}
