import Foundation

/// A copy of a real trace with its event times rewritten (as a hostile or broken recording
/// would have them), in a temporary file removed on deinit.
final class MutatedTrace {
    let path: String

    /// `retime` gets each event's index and time in µs and returns the new time.
    convenience init(_ name: String, retime: (Int, UInt64) -> UInt64) throws {
        var index = 0
        try self.init(name) { line in
            guard line.hasPrefix("E: ") else { return String(line) }
            var fields = line.split(separator: " ").map(String.init)
            let parts = fields[1].split(separator: ".")
            let micros = UInt64(parts[0])! * 1_000_000 + UInt64(parts[1])!
            let new = retime(index, micros)
            index += 1
            let usec = String(new % 1_000_000)
            fields[1] = "\(new / 1_000_000)." + String(repeating: "0", count: 6 - usec.count) + usec
            return fields.joined(separator: " ")
        }
    }

    /// `rewrite` gets each line of the evemu file and returns what stands in its place (nil: nothing).
    init(_ name: String, rewrite: (Substring) -> String?) throws {
        let text = try String(contentsOfFile: tracePath(name), encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).compactMap(rewrite)
        path = FileManager.default.temporaryDirectory.appendingPathComponent("penkit-mutated-\(UUID().uuidString.prefix(8)).evemu").path
        try lines.joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)
    }

    /// The trace played twice: its events again, `gap` µs after its last, as a second session
    /// of the same pen.
    static func twice(_ name: String, gap: UInt64) throws -> MutatedTrace {
        let events = try String(contentsOfFile: tracePath(name), encoding: .utf8)
            .split(separator: "\n").filter { $0.hasPrefix("E: ") }
        func micros(_ line: Substring) -> UInt64 {
            let parts = line.split(separator: " ")[1].split(separator: ".")
            return UInt64(parts[0])! * 1_000_000 + UInt64(parts[1])!
        }
        let span = micros(events.last!) - micros(events.first!) + gap
        let again = try MutatedTrace(name, retime: { _, time in time + span })
        let repeated = try String(contentsOfFile: again.path, encoding: .utf8)
            .split(separator: "\n").filter { $0.hasPrefix("E: ") }
        return try MutatedTrace(name) { line in
            line == events.last! ? ([line] + repeated).joined(separator: "\n") : String(line)
        }
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }
}
