import Foundation

/// A copy of a real trace with its event times rewritten (as a hostile or broken recording
/// would have them), in a temporary file removed on deinit.
final class MutatedTrace {
    let path: String

    /// `retime` gets each event's index and time in µs and returns the new time.
    init(_ name: String, retime: (Int, UInt64) -> UInt64) throws {
        let text = try String(contentsOfFile: tracePath(name), encoding: .utf8)
        var index = 0
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
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
        path = FileManager.default.temporaryDirectory.appendingPathComponent("penkit-mutated-\(UUID().uuidString.prefix(8)).evemu").path
        try lines.joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }
}
