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
    /// every frame and update on one connection and every stroke on another, each up to the
    /// `device` `removed` message the replay's end sends on the reliable devices channel, which
    /// follows every line before it. (Live lines are dropped while reliable ones wait, so frames
    /// and strokes on one busy connection would lose frames.)
    init(trace: String, config: String) throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("penkitd-\(UUID().uuidString).conf").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        // Room for a whole replay, so that no frame is dropped for a test client slowed by a busy host.
        try ("client-live-buffer-bytes = 1073741824\n" + config).write(toFile: path, atomically: true, encoding: .utf8)
        let daemon = try DaemonProcess(["--replay", tracePath(trace), "--wait-clients", "2",
                                        "--history-strokes", "100000"], config: path)
        defer { _ = daemon.stop() }
        let live = try daemon.connect(), reliable = try daemon.connect()
        guard let first = try live.readLine(), try reliable.readLine() != nil else { throw TestFailure("no hello") }
        try live.subscribe(["frames", "updates", "devices"])
        try reliable.subscribe(["strokes", "devices"])
        func end(_ line: String) -> Bool { type(line) == "device" && object(line)["change"] as? String == "removed" }
        let frames = try live.read(until: end, timeout: 120)
        let strokes = try reliable.read(until: end, timeout: 120)
        lines = [first] + frames + strokes
        guard frames.last.map(end) == true, strokes.last.map(end) == true else { throw TestFailure("the replay did not reach its end") }
        guard !lines.contains(where: { type($0) == "dropped" }) else { throw TestFailure("frames were dropped for the test client") }
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
