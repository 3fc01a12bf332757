import Foundation

/// A trace's own description of its x and y axes, read from its `A:` lines (evemu), so that tests
/// take sizes from the recording, never from penkit's code.
struct TraceAxes {
    /// code → (minimum, maximum, resolution)
    var ranges: [Int: (minimum: Double, maximum: Double, resolution: Double)] = [:]
    /// INPUT_PROP_* bits of the `P:` line.
    var properties: Set<Int> = []

    init(evemu path: String) throws {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: " ")
            if fields.first == "A:", fields.count >= 7, let code = Int(fields[1], radix: 16),
               let minimum = Double(fields[2]), let maximum = Double(fields[3]), let resolution = Double(fields[6]) {
                ranges[code] = (minimum, maximum, resolution)
            } else if fields.first == "P:" {
                for (byte, text) in fields.dropFirst().enumerated() {
                    let bits = Int(text, radix: 16) ?? 0
                    for bit in 0..<8 where bits & (1 << bit) != 0 { properties.insert(byte * 8 + bit) }
                }
            }
        }
    }

    /// (maximum − minimum) / resolution of an axis, in mm.
    func size(_ code: Int) -> Double {
        guard let r = ranges[code] else { return .nan }
        return (r.maximum - r.minimum) / r.resolution
    }

    var width: Double { size(0x00) }
    var height: Double { size(0x01) }
}

/// Everything one client sees of a replay, from `hello` to `shutdown`.
struct ReplayCapture: Sendable {
    /// Every line as sent, `hello` first.
    var lines: [String]
    var messages: [[String: Any]] { lines.map(object) }
    var hello: [String: Any] { object(lines[0]) }

    /// Replays `trace` through a spawned penkitd with `config` (text of a config file) and reads
    /// every frame, update and stroke until the daemon shuts down at the replay's end.
    init(trace: String, config: String) throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("penkitd-\(UUID().uuidString).conf").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try config.write(toFile: path, atomically: true, encoding: .utf8)
        let daemon = try DaemonProcess(["--replay", tracePath(trace), "--wait-clients", "1", "--exit-after-replay",
                                        "--history-strokes", "100000"], config: path)
        defer { _ = daemon.stop() }
        let client = try daemon.connect()
        guard let first = try client.readLine() else { throw TestFailure("no hello") }
        lines = [first]
        try client.subscribe(["frames", "updates", "strokes", "devices"])
        lines += try client.read(until: { type($0) == "shutdown" }, timeout: 120)
        guard lines.last.map(type) == "shutdown" else { throw TestFailure("the replay did not reach its end") }
    }

    func ofType(_ name: String) -> [[String: Any]] { messages.filter { $0["type"] as? String == name } }
    var frames: [[String: Any]] { ofType("frame") }
    var device: [String: Any] { (hello["devices"] as? [[String: Any]])?.first ?? [:] }
}

extension Dictionary where Key == String, Value == Any {
    func number(_ key: String) -> Double? { (self[key] as? NSNumber)?.doubleValue }
    func dictionary(_ key: String) -> [String: Any] { self[key] as? [String: Any] ?? [:] }
    func list(_ key: String) -> [[String: Any]] { self[key] as? [[String: Any]] ?? [] }
    func strings(_ key: String) -> [String] { self[key] as? [String] ?? [] }
}

/// The difference of two angles, folded into [0, π].
func angleDistance(_ a: Double, _ b: Double) -> Double {
    let d = (a - b).truncatingRemainder(dividingBy: 2 * .pi)
    let folded = abs(d)
    return min(folded, 2 * .pi - folded)
}
