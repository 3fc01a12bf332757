import Foundation
import Testing

/// What a user sees of penkit and penkitd as processes: versions, plain errors, a daemon that
/// cannot be found, and journal priorities.
struct ServiceBehaviourTests {
    /// The built penkit beside penkitd.
    static let penkitPath = URL(fileURLWithPath: penkitdPath).deletingLastPathComponent().appendingPathComponent("penkit").path

    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    func run(_ executable: String, _ arguments: [String], environment: [String: String] = [:],
             stderrFile: String? = nil) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        env.removeValue(forKey: "PENKIT_SOCKET")
        env.removeValue(forKey: "JOURNAL_STREAM")
        process.environment = env.merging(environment) { _, new in new }
        let out = Pipe()
        process.standardOutput = out
        let err = Pipe()
        if let stderrFile { process.standardError = FileHandle(forWritingAtPath: stderrFile) } else { process.standardError = err }
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = stderrFile == nil ? err.fileHandleForReading.readDataToEndOfFile() : Data()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
                      stderr: String(decoding: stderr, as: UTF8.self))
    }

    @Test func bothToolsPrintTheSameVersion() throws {
        let daemon = try run(penkitdPath, ["--version"])
        let cli = try run(Self.penkitPath, ["--version"])
        #expect(daemon.status == 0 && cli.status == 0)
        #expect(!daemon.stdout.isEmpty)
        #expect(daemon.stdout == cli.stdout)
    }

    @Test func noDaemonAnsweringIsOneLineAndNotAUsageError() throws {
        let runtime = NSTemporaryDirectory() + "penkit-none-\(UUID().uuidString.prefix(8))"
        let result = try run(Self.penkitPath, ["devices"], environment: ["PENKIT_SOCKET": runtime + "/x.sock", "XDG_RUNTIME_DIR": runtime])
        guard !FileManager.default.fileExists(atPath: "/run/penkit/penkit.sock") else { return }
        #expect(result.status == 69)
        #expect(result.stderr.split(separator: "\n").count == 1)
        #expect(result.stderr.contains(runtime + "/x.sock (no socket there)"))
        #expect(result.stderr.contains(runtime + "/penkit/penkit.sock (no socket there)"))
        #expect(!result.stderr.contains("Usage"))
    }

    @Test func aMissingConfigFileIsASentenceWithoutLineZero() throws {
        let result = try run(penkitdPath, ["--config", "/nonexistent/penkitd.conf"])
        #expect(result.status != 0)
        #expect(result.stderr.contains("config file /nonexistent/penkitd.conf cannot be read: No such file or directory"))
        #expect(!result.stderr.contains(":0:"))
    }

    /// penkitd run by a user whose XDG_CONFIG_HOME it may not search: the default config file is
    /// skipped with a warning naming it and why, and penkitd runs on the defaults (it used to
    /// refuse to start). The user is nobody, so the test needs root.
    @Test(.enabled(if: getuid() == 0)) func anUnreadableDefaultConfigFileIsAWarning() throws {
        let locked = NSTemporaryDirectory() + "penkit-locked-\(UUID().uuidString.prefix(8))"
        let work = NSTemporaryDirectory() + "penkit-nobody-\(UUID().uuidString.prefix(8))"
        for (directory, mode) in [(locked, 0o700), (work, 0o777)] {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            #expect(chmod(directory, mode_t(mode)) == 0)
        }
        defer { for directory in [locked, work] { try? FileManager.default.removeItem(atPath: directory) } }
        let result = try runAsNobody(["/usr/bin/env", "XDG_CONFIG_HOME=\(locked)", penkitdPath,
                                      "--socket", work + "/s.sock", "--state-dir", work + "/state",
                                      "--replay", tracePath("wacom-intuos4-6x9-stylus-tap.evemu"), "--exit-after-replay"])
        #expect(result.status == 0, "\(result.output)")
        let warning = result.output.split(separator: "\n").first { $0.contains("config file \(locked)/penkit/penkitd.conf") }
        #expect(warning?.contains("warning") == true, "\(result.output)")
        #expect(warning?.hasSuffix("config file \(locked)/penkit/penkitd.conf cannot be read: Permission denied; using the defaults") == true)
    }

    @Test func anUnknownSocketGroupIsNamedAsTheSocketGroup() throws {
        let socket = NSTemporaryDirectory() + "penkit-group-\(UUID().uuidString.prefix(8)).sock"
        let result = try run(penkitdPath, ["--config", "/dev/null", "--socket", socket, "--socket-group", "no-such-group-penkit"])
        #expect(result.status != 0)
        #expect(result.stderr.contains("the socket group \"no-such-group-penkit\" does not exist"))
        #expect(!result.stderr.contains("allow-groups"))
    }

    @Test func aMissingFileIsNotAFoundationErrorDump() throws {
        let result = try run(Self.penkitPath, ["compare", "/nonexistent/a.jsonl", "/nonexistent/b.jsonl"])
        #expect(result.status != 0)
        #expect(result.stderr.contains("cannot read /nonexistent/a.jsonl: No such file or directory"))
        #expect(!result.stderr.contains("NSCocoaErrorDomain"))
    }

    /// With stderr on the journal's stream (JOURNAL_STREAM names its device and inode), every line
    /// starts with its syslog priority (<6> for info, syslog.h's LOG_INFO); without it, none does.
    @Test func linesCarryTheirPriorityOnlyWhenStderrIsTheJournal() throws {
        let directory = NSTemporaryDirectory() + "penkit-journal-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let arguments = ["--config", "/dev/null", "--replay", tracePath("wacom-intuos4-6x9-stylus-tap.evemu"), "--exit-after-replay"]
        for journal in [true, false] {
            let log = directory + "/\(journal).log"
            FileManager.default.createFile(atPath: log, contents: nil)
            var st = stat()
            #expect(stat(log, &st) == 0)
            let environment = journal ? ["JOURNAL_STREAM": "\(st.st_dev):\(st.st_ino)"] : [:]
            let result = try run(penkitdPath, arguments + ["--socket", directory + "/\(journal).sock"], environment: environment, stderrFile: log)
            #expect(result.status == 0)
            let lines = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
            #expect(!lines.isEmpty)
            let prefixed = lines.filter { $0.range(of: "^<[0-7]>penkitd", options: .regularExpression) != nil }
            #expect(prefixed.count == (journal ? lines.count : 0))
            if journal { #expect(lines.contains { $0.hasPrefix("<6>") }) }
        }
    }
}
