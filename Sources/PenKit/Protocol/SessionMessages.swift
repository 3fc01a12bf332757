/// `{"type":"subscribed","channels":[…],"replaying":N}`: the server's answer to
/// `subscribe`; live messages follow it, after the N replayed history strokes.
public struct SubscribedMessage: Sendable, Hashable, WireMessage {
    public var channels: ChannelSet
    public var replaying: Int
    /// The predictions the client gets, as in force: a horizon asked past the 50 ms cap reads
    /// 50 here, so the cap is never silent.
    public var predict: PredictionRequest?
    /// With the `devices` channel: the devices read at the moment the subscription took effect.
    /// `hello` is a snapshot taken at connect, and `device` messages start with the
    /// subscription, so a device added in between was in neither; this list and the `device`
    /// messages after it are the whole story, with no gap and no overlap.
    public var devices: [DeviceInfo]?
    /// For a client that asked for `strokeParts`: the most points (or control points) one
    /// `strokePart` carries; a longer stroke comes in parts. Nil (absent) for any other client.
    public var strokePartPoints: Int?

    public init(channels: ChannelSet, replaying: Int, predict: PredictionRequest? = nil, devices: [DeviceInfo]? = nil,
                strokePartPoints: Int? = nil) {
        self.channels = channels
        self.replaying = replaying
        self.predict = predict
        self.devices = devices
        self.strokePartPoints = strokePartPoints
    }

    public func write(to w: inout JSONWriter) {
        w.raw("{")
        w.field("type", plain: "subscribed")
        w.key("channels"); w.write(channels)
        w.field("replaying", replaying)
        if let predict { w.key("predict"); predict.write(to: &w) }
        if let devices { w.field("devices", devices: devices) }
        if let strokePartPoints {
            w.key("strokeParts"); w.raw("{"); w.field("points", strokePartPoints); w.raw("}")
        }
        w.raw("}")
    }
}

/// `{"type":"shutdown","reason":"…"}`: the server is stopping; open strokes were
/// sent as cancelled before this line, and the connection closes after it.
public struct ShutdownMessage: Sendable, Hashable, WireMessage {
    public var reason: String
    /// The last stroke seq this client was sent in full before this line (0: none; nil from a
    /// server that does not say). A client resumes after the restart with `since` set to it, or
    /// to the last seq it read when the connection ended before this line reached it.
    public var lastSentSeq: UInt64?
    public init(reason: String, lastSentSeq: UInt64? = 0) {
        self.reason = reason
        self.lastSentSeq = lastSentSeq
    }
    public func write(to w: inout JSONWriter) {
        w.raw("{")
        w.field("type", plain: "shutdown")
        w.field("reason", string: reason)
        if let lastSentSeq { w.field("lastSentSeq", lastSentSeq) }
        w.raw("}")
    }
}

// The client's readers of the same lines (`PenMessage.subscribed`, `.shutdown`): every field the
// writers above write, so that a field added to one is added to the other beside it
// (ProtocolExampleTests reads the schema's examples back through both).

extension SubscribedMessage: Decodable {
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        // A channel this client does not know (a newer server's) is left out, not an error.
        let names: [String] = try c.maybe("channels") ?? []
        let channels = names.compactMap(SubscriptionChannel.init(rawValue:)).reduce(into: ChannelSet()) { $0.insert(ChannelSet($1)) }
        var predict: PredictionRequest?
        if let value = try c.maybe("predict", as: JSONValue.self) {
            guard case .success(let request) = PredictionRequest.parse(value) else {
                throw DecodingError.dataCorruptedError(forKey: Keys("predict"), in: c, debugDescription: "malformed predict")
            }
            predict = request
        }
        let parts = try c.maybe("strokeParts", as: [String: Int].self)
        self.init(channels: channels, replaying: try c.maybe("replaying") ?? 0, predict: predict,
                  devices: try c.maybe("devices"), strokePartPoints: parts?["points"])
    }
}

extension ShutdownMessage: Decodable {
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        self.init(reason: try c.maybe("reason") ?? "", lastSentSeq: try c.maybe("lastSentSeq"))
    }
}
