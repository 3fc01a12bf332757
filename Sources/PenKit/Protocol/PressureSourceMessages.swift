import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A producer's declaration: `{"type":"pressure-source","version":1,"device":ID,"latency":µs,"jitter":µs}`
/// with an optional `"serial":N` (only that tool). After it, every line the peer sends is a
/// `PressureReading`.
public struct PressureSourceRequest: Sendable, Hashable, WireMessage {
    public var version: Int
    public var device: Int
    public var serial: UInt64?
    /// How long after its sample a reading typically arrives, µs.
    public var latency: UInt64
    /// How far arrival (and the reading's timestamp) may stray from that, µs.
    public var jitter: UInt64

    /// The most latency or jitter a source may state: 10 s.
    public static let maxDelay: UInt64 = 10_000_000

    public init(version: Int = PenProtocol.version, device: Int, serial: UInt64? = nil, latency: UInt64, jitter: UInt64) {
        self.version = version
        self.device = device
        self.serial = serial
        self.latency = latency
        self.jitter = jitter
    }

    public func write(to w: inout JSONWriter) {
        w.raw("{")
        w.field("type", plain: "pressure-source")
        w.field("version", version)
        w.field("device", device)
        if let serial { w.field("serial", serial) }
        w.field("latency", latency)
        w.field("jitter", jitter)
        w.raw("}")
    }

    public static func parse(_ line: [UInt8]) -> Result<PressureSourceRequest, ErrorMessage> {
        // Typed strictly: a bool, a fraction or a negative number is an error, not a coerced value.
        guard let fields = try? JSONDecoder().decode(Fields.self, from: Data(line)), fields.type == "pressure-source" else {
            return .failure(ErrorMessage(code: .malformed, message: "pressure-source needs integer \"version\", \"device\", "
                + "\"latency\" and \"jitter\" (µs), and optionally \"serial\"", fatal: true))
        }
        guard fields.version == PenProtocol.version else {
            return .failure(ErrorMessage(code: .unsupportedVersion,
                                         message: "protocol version \(fields.version) is not supported; this server speaks \(PenProtocol.version)",
                                         fatal: true))
        }
        guard fields.device > 0 else {
            return .failure(ErrorMessage(code: .malformed, message: "\"device\" must be a device id from hello or a device message", fatal: true))
        }
        guard fields.latency <= maxDelay, fields.jitter <= maxDelay else {
            return .failure(ErrorMessage(code: .outOfRange, message: "\"latency\" and \"jitter\" must be at most \(maxDelay) µs", fatal: true))
        }
        return .success(PressureSourceRequest(version: fields.version, device: fields.device, serial: fields.serial,
                                              latency: fields.latency, jitter: fields.jitter))
    }

    private struct Fields: Decodable {
        var type: String
        var version: Int
        var device: Int
        var serial: UInt64?
        var latency: UInt64
        var jitter: UInt64
    }
}

/// One reading from a source: `{"type":"pressure","t":µs,"force":0…1}`. `t` is when the pen
/// measured it, on the tablet events' clock (CLOCK_MONOTONIC, as libinput's event times).
public struct PressureReading: Sendable, Hashable, WireMessage {
    public var time: UInt64
    public var force: Double

    public init(time: UInt64, force: Double) {
        self.time = time
        self.force = force
    }

    public func write(to w: inout JSONWriter) {
        w.raw("{")
        w.field("type", plain: "pressure")
        w.field("t", time)
        w.field("force", force)
        w.raw("}")
    }

    /// Parses one source line; the error is fatal (a source that sends garbage is cut off).
    public static func parse(_ line: [UInt8]) -> Result<PressureReading, ErrorMessage> {
        guard let fields = try? JSONDecoder().decode(Fields.self, from: Data(line)), fields.type == "pressure" else {
            return .failure(ErrorMessage(code: .malformed,
                                         message: "a pressure source sends only {\"type\":\"pressure\",\"t\":µs,\"force\":0..1} lines",
                                         fatal: true))
        }
        guard fields.force.isFinite, fields.force >= 0, fields.force <= 1 else {
            return .failure(ErrorMessage(code: .outOfRange, message: "force \(fields.force) is outside 0...1", fatal: true))
        }
        return .success(PressureReading(time: fields.t, force: fields.force))
    }

    private struct Fields: Decodable {
        var type: String
        var t: UInt64
        var force: Double
    }
}

/// `{"type":"pressure-source","device":ID,"state":"attached"|"detached",…}` on the `devices`
/// channel (and to the source itself when it is attached): whether a device's force now comes
/// from a second source (estimates that expect updates) or from the tablet (`"fallback":"in-band"`).
public struct PressureSourceMessage: Sendable, Hashable, WireMessage {
    public enum State: String, Sendable { case attached, detached }
    public var device: Int
    public var state: State
    public var serial: UInt64?
    public var latency: UInt64?
    public var jitter: UInt64?
    /// Why a source was detached.
    public var reason: String?
    /// On `attached` as readers get it: the device's contact frames (frames of a stroke) sent
    /// before its samples began to expect this source's readings. A bridge that pairs its k-th
    /// reading with the k-th contact frame of a recording starts at this one.
    public var contactFrames: Int?

    public static func attached(_ request: PressureSourceRequest, contactFrames: Int? = nil) -> PressureSourceMessage {
        var message = PressureSourceMessage(device: request.device, state: .attached, serial: request.serial,
                                            latency: request.latency, jitter: request.jitter, reason: nil)
        message.contactFrames = contactFrames
        return message
    }

    public static func detached(device: Int, reason: String) -> PressureSourceMessage {
        PressureSourceMessage(device: device, state: .detached, serial: nil, latency: nil, jitter: nil, reason: reason)
    }

    public init(device: Int, state: State, serial: UInt64?, latency: UInt64?, jitter: UInt64?, reason: String?) {
        self.device = device
        self.state = state
        self.serial = serial
        self.latency = latency
        self.jitter = jitter
        self.reason = reason
    }

    public func write(to w: inout JSONWriter) {
        w.raw("{")
        w.field("type", plain: "pressure-source")
        w.field("device", device)
        w.field("state", plain: state.rawValue)
        if let serial { w.field("serial", serial) }
        if let latency { w.field("latency", latency) }
        if let jitter { w.field("jitter", jitter) }
        if let contactFrames { w.field("contactFrames", contactFrames) }
        if state == .detached { w.field("fallback", plain: "in-band") }
        if let reason { w.field("reason", string: reason) }
        w.raw("}")
    }
}
