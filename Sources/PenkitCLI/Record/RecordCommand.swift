import ArgumentParser
import Foundation
import PenKit

/// `penkit record --last 30s -o report.yml`: asks penkitd's flight recorder for the last seconds
/// of input and of what it published, and writes them as a `libinput record` YAML bug report
/// (docs/bug-reports.md). `penkit replay report.yml --check` then says whether penkit reproduces
/// what clients got.
struct RecordCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "record",
        abstract: "Write the last seconds of tablet input, from penkitd's flight recorder, as a bug report.",
        discussion: "The report holds pen positions, which can be handwriting: look before you share it. See docs/bug-reports.md."
    )

    @OptionGroup var daemon: DaemonClientOptions

    @Option(help: "How far back: seconds, as 30s, 2m or 45 (default: all penkitd keeps, 60 s unless configured).")
    var last: String?

    @Option(name: [.short, .customLong("output")], help: "Where to write the report (YAML); - for standard output.")
    var output: String

    func run() async throws {
        let seconds = try last.map(Self.seconds)
        let client = try daemon.connect(bufferLines: 1 << 16)
        defer { client.disconnect() }
        try client.send(RecordRequest(seconds: seconds).jsonLine())
        var recording = Recording()
        do {
            for try await line in client.lines where try recording.take(line.text) { break }
        } catch let error as Recording.Malformed {
            throw RuntimeFailure(error.description)
        }
        guard recording.complete else { throw RuntimeFailure("penkitd closed the connection before the recording ended") }
        let text = RecordingYAML.text(recording, kernel: Self.kernel(), os: Self.os())
        if output == "-" {
            FileHandle.standardOutput.write(Data(text.utf8))
        } else {
            do {
                try Data(text.utf8).write(to: URL(fileURLWithPath: output))
            } catch {
                throw RuntimeFailure("cannot write \(output): \(error.localizedDescription)")
            }
        }
        FileHandle.standardError.write(Data("penkit record: \(Self.note(recording)) → \(output). It holds pen positions (handwriting): look before you share it.\n".utf8))
    }

    /// What the recording holds, and which devices the virtual tablet's grab kept out of it, each
    /// by its node and penkitd's id: a tablet unplugged and plugged again in the window comes back
    /// as a new device on the same node.
    static func note(_ recording: Recording) -> String {
        let events = recording.devices.reduce(0) { $0 + $1.events.count }
        let grabbed = recording.devices.filter(\.grabbed).map { "\($0.node) (device \($0.id))" }
        var note = "\(recording.devices.count) device(s), \(events) events, \(recording.lines.count) engine lines (as digests)"
        note += " from the last \(recording.seconds) s"
        if !grabbed.isEmpty { note += "; grabbed by the virtual tablet, so not recorded: \(grabbed.joined(separator: ", "))" }
        return note
    }

    /// `30s`, `2m`, `45`: whole seconds from 1 to RecordRequest.maxSeconds.
    static func seconds(_ text: String) throws -> Int {
        var digits = Substring(text)
        var scale = 1
        if digits.hasSuffix("s") { digits = digits.dropLast() } else if digits.hasSuffix("m") { digits = digits.dropLast(); scale = 60 }
        guard let n = Int(digits), n > 0, n <= RecordRequest.maxSeconds / scale else {
            throw ValidationError("--last expects seconds from 1 to \(RecordRequest.maxSeconds) (as 30s, 2m or 45), got \(text)")
        }
        return n * scale
    }

    static func kernel() -> String {
        var u = utsname()
        guard uname(&u) == 0 else { return "unknown" }
        return withUnsafeBytes(of: u.release) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    }

    static func os() -> String {
        guard let text = try? String(contentsOfFile: "/etc/os-release", encoding: .utf8) else { return "unknown" }
        let fields = Dictionary(text.split(separator: "\n").compactMap { line -> (String, String)? in
            guard let eq = line.firstIndex(of: "=") else { return nil }
            return (String(line[..<eq]), line[line.index(after: eq)...].trimmingCharacters(in: CharacterSet(charactersIn: "\"")))
        }, uniquingKeysWith: { a, _ in a })
        return "\(fields["ID"] ?? "linux"):\(fields["VERSION_ID"] ?? "")"
    }
}
