/// The predictions a client wants in its frames, from `subscribe`'s `"predict"`:
/// `{"horizonMs":24}` (capped at 50 ms), `"none"`, or Android's choice
/// `{"pipeline":true,"displayLatencyMs":8}`: the horizon follows the pipeline's real age (now
/// minus the frame's event time when the frame is made) plus the client's display latency.
/// Absent: the daemon's horizon (16 ms).
public enum PredictionRequest: Sendable, Hashable {
    case horizon(micros: UInt32)
    case none
    case pipelineAge(displayLatencyMicros: UInt32)

    /// The longest horizon a client may ask for, ms.
    public static let maxHorizonMs = 50.0
    /// What a client gets without asking.
    public static let standard = PredictionRequest.horizon(micros: 16_000)

    /// The horizon (s) for a frame whose event happened at `eventTime`, now being `now` (µs, same clock).
    public func horizon(eventTime: UInt64, now: UInt64) -> Double {
        switch self {
        case .none: return 0
        case .horizon(let micros): return Double(micros) * 1e-6
        case .pipelineAge(let latency):
            let age = now > eventTime ? now - eventTime : 0
            return min(Double(age) * 1e-6 + Double(latency) * 1e-6, Self.maxHorizonMs * 1e-3)
        }
    }

    /// Reads `"predict"`'s value; nil with a reason when malformed.
    static func parse(_ value: JSONValue) -> Result<PredictionRequest, ErrorMessage> {
        func malformed(_ why: String) -> Result<PredictionRequest, ErrorMessage> {
            .failure(ErrorMessage(code: .malformed, message: "\"predict\" " + why))
        }
        if let word = value.string {
            return word == "none" ? .success(.none) : malformed("must be \"none\" or an object")
        }
        guard case .object(let fields) = value else { return malformed("must be \"none\" or an object") }
        for key in fields.keys where !["horizonMs", "pipeline", "displayLatencyMs"].contains(key) {
            return malformed("has an unknown field \"\(key)\"")
        }
        func milliseconds(_ key: String) -> Double?? {
            guard let raw = fields[key] else { return .some(nil) }
            guard let number = raw.double, number.isFinite, number >= 0 else { return nil }
            return .some(min(number, maxHorizonMs))
        }
        if let pipeline = fields["pipeline"] {
            guard pipeline == .bool(true), fields["horizonMs"] == nil else {
                return malformed("takes either \"horizonMs\" or \"pipeline\":true with \"displayLatencyMs\"")
            }
            guard let latency = milliseconds("displayLatencyMs") else {
                return malformed("\"displayLatencyMs\" must be a non-negative number of milliseconds")
            }
            return .success(.pipelineAge(displayLatencyMicros: UInt32(((latency ?? 0) * 1000).rounded())))
        }
        guard let horizon = milliseconds("horizonMs"), let horizon else {
            return malformed("\"horizonMs\" must be a non-negative number of milliseconds (at most \(Int(maxHorizonMs)) are used)")
        }
        guard fields["displayLatencyMs"] == nil else { return malformed("\"displayLatencyMs\" goes with \"pipeline\":true") }
        let micros = UInt32((horizon * 1000).rounded())
        return .success(micros == 0 ? .none : .horizon(micros: micros))
    }

    public func write(to w: inout JSONWriter) {
        switch self {
        case .none: w.raw("\"none\"")
        case .horizon(let micros):
            w.raw("{"); w.field("horizonMs", Double(micros) / 1000); w.raw("}")
        case .pipelineAge(let latency):
            w.raw("{"); w.field("pipeline", true); w.field("displayLatencyMs", Double(latency) / 1000); w.raw("}")
        }
    }
}
