import Foundation

/// One line as the client received it: its text, its `type`, and when it arrived (CLOCK_MONOTONIC µs).
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
    case hello(version: Int, devices: [DeviceInfo], lastSeq: UInt64, oldestSeq: UInt64, settings: [String: String])
    case subscribed(channels: [SubscriptionChannel], replaying: Int)
    case device(DeviceChangeMessage)
    case proximity(ProximityMessage)
    case button(ButtonMessage)
    case engine(EngineMessage)
    case dropped(DroppedMessage)
    case error(code: String, message: String, fatal: Bool)
    case shutdown(reason: String)
    /// A message type this client does not know (a newer server); kept, not fatal.
    case unknown(type: String, JSONObject)

    /// Decodes one line; nil when it is not a JSON object with a `type`.
    public init?(line: String) {
        guard let data = line.data(using: .utf8),
              let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any],
              let type = object["type"] as? String else { return nil }
        let json = JSONObject(object)
        switch type {
        case "hello":
            let devices = (object["devices"] as? [[String: Any]] ?? []).compactMap(DeviceInfo.init(json:))
            self = .hello(version: json.int("version") ?? 0, devices: devices,
                          lastSeq: json.uint("lastSeq") ?? 0, oldestSeq: json.uint("oldestSeq") ?? 0,
                          settings: (object["settings"] as? [String: String]) ?? [:])
        case "subscribed":
            let names = object["channels"] as? [String] ?? []
            self = .subscribed(channels: names.compactMap(SubscriptionChannel.init(rawValue:)), replaying: json.int("replaying") ?? 0)
        case "device":
            guard let device = (object["device"] as? [String: Any]).flatMap(DeviceInfo.init(json:)),
                  let change = (object["change"] as? String).flatMap(DeviceChangeMessage.Change.init(rawValue:)) else { return nil }
            self = .device(DeviceChangeMessage(change: change, device: device))
        case "proximity":
            self = .proximity(ProximityMessage(device: json.int("device") ?? 0, time: json.uint("t") ?? 0,
                                               entering: object["state"] as? String == "in", tool: ToolIdentity(json: object["tool"])))
        case "button":
            self = .button(ButtonMessage(device: json.int("device") ?? 0, time: json.uint("t") ?? 0,
                                         button: UInt32(json.uint("button") ?? 0),
                                         pressed: object["state"] as? String == "pressed", tool: ToolIdentity(json: object["tool"])))
        case "frame", "began", "update", "ended", "stroke":
            guard let message = try? EngineMessage.decode(jsonLine: line) else { return nil }
            self = .engine(message)
        case "dropped":
            self = .dropped(DroppedMessage(frames: json.uint("frames") ?? 0, updates: json.uint("updates") ?? 0,
                                           buttons: json.uint("buttons") ?? 0))
        case "error":
            self = .error(code: object["code"] as? String ?? "", message: object["message"] as? String ?? "",
                          fatal: object["fatal"] as? Bool ?? false)
        case "shutdown":
            self = .shutdown(reason: object["reason"] as? String ?? "")
        default:
            self = .unknown(type: type, json)
        }
    }
}

/// A decoded JSON object, Sendable because it is only ever read.
public struct JSONObject: @unchecked Sendable {
    public let value: [String: Any]
    public init(_ value: [String: Any]) { self.value = value }

    public subscript(key: String) -> Any? { value[key] }
    public func int(_ key: String) -> Int? { (value[key] as? NSNumber)?.intValue }
    public func uint(_ key: String) -> UInt64? { (value[key] as? NSNumber)?.uint64Value }
    public func double(_ key: String) -> Double? { (value[key] as? NSNumber)?.doubleValue }
    public func object(_ key: String) -> JSONObject? { (value[key] as? [String: Any]).map(JSONObject.init) }
    public func array(_ key: String) -> [JSONObject] { (value[key] as? [[String: Any]] ?? []).map(JSONObject.init) }
}

extension DeviceInfo {
    init?(json: [String: Any]) {
        guard let id = (json["id"] as? NSNumber)?.intValue else { return nil }
        self.init(id: id, name: json["name"] as? String ?? "",
                  vendor: (json["vendor"] as? NSNumber)?.uint16Value ?? 0,
                  product: (json["product"] as? NSNumber)?.uint16Value ?? 0,
                  source: json["source"] as? String ?? "")
    }
}

extension ToolIdentity {
    init(json: Any?) {
        let object = json as? [String: Any] ?? [:]
        self.init(type: (object["type"] as? String).flatMap(ToolType.init(rawValue:)) ?? .pen,
                  serial: (object["serial"] as? NSNumber)?.uint64Value ?? 0,
                  id: (object["id"] as? NSNumber)?.uint64Value ?? 0)
    }
}
