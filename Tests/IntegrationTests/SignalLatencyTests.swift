import Foundation
import Testing

/// SIGTERM ends penkitd promptly wherever it waits: a far time jump in a real-time replay (a
/// trace or config FIFO with no writer is refused, not waited on). Each bound only limits failure (the bugs these
/// catch waited for a writer forever, or for a year); the measured time is printed.
@Suite(.serialized)
struct SignalLatencyTests {
    static let trace = "wacom-intuos4-6x9-stylus-tap.evemu"

    /// A trace FIFO nobody writes to is not waited on either: refused at once, by name.
    @Test func aReplayFifoWithNoWriterIsRefusedWithoutWaiting() throws {
        let directory = try TemporaryDirectory()
        let fifo = directory.path + "/trace.fifo"
        #expect(mkfifo(fifo, 0o600) == 0)
        let daemon = try StartedProcess(penkitdPath, ["--config", "/dev/null", "--socket", directory.path + "/s.sock",
                                                      "--state-dir", directory.path + "/state", "--replay", fifo])
        let status = daemon.waitForExit(timeout: 20)
        #expect(status != nil && status != 0)
        #expect(daemon.output.contains("\(fifo): a FIFO with no writer"), "\(daemon.output)")
    }

    /// A config FIFO is not waited on at all: penkitd refuses it at once, by name.
    @Test func aConfigFifoWithNoWriterIsRefusedWithoutWaiting() throws {
        let directory = try TemporaryDirectory()
        let fifo = directory.path + "/penkitd.conf"
        #expect(mkfifo(fifo, 0o600) == 0)
        let daemon = try StartedProcess(penkitdPath, ["--config", fifo, "--socket", directory.path + "/s.sock",
                                                      "--state-dir", directory.path + "/state"])
        let status = daemon.waitForExit(timeout: 20)
        #expect(status != nil && status != 0)
        #expect(daemon.output.contains("config file \(fifo) is not a regular file (a FIFO)"), "\(daemon.output)")
    }

    @Test func sigtermEndsARealtimeReplayInAFarTimeJump() throws {
        // A year of silence after the first frame: the replay sleeps into it at once.
        var firstFrameEnd: Int?
        let text = try String(contentsOfFile: tracePath(Self.trace), encoding: .utf8)
        let events = text.split(separator: "\n").filter { $0.hasPrefix("E: ") }
        firstFrameEnd = events.firstIndex { $0.hasSuffix("0000 0000 0") }
        let jumpAfter = try #require(firstFrameEnd)
        let trace = try MutatedTrace(Self.trace) { index, time in index > jumpAfter ? time + 365 * 86_400 * 1_000_000 : time }
        let daemon = try DaemonProcess(["--replay", trace.path, "--realtime", "--wait-clients", "1"])
        let client = try daemon.connect()
        try client.subscribe(["frames"])
        _ = try client.read(until: { type($0) == "frame" || type($0) == "proximity" })
        let start = Date()
        #expect(daemon.stop() == 0)
        print("SIGTERM → exit, real-time replay in a one-year gap: \(Int(Date().timeIntervalSince(start) * 1000)) ms")
    }

    @Test func aProcessSubstitutionTraceIsReadOnceAndServed() throws {
        let expected = try tipDowns(in: Self.trace)
        // Through bash's own `<(cat trace)`: a pipe whose writer is running before penkitd starts,
        // as a user would write it. (A thread opening a FIFO beside penkitd raced it: penkitd
        // refuses a FIFO nobody writes to, and now and then the thread had not opened it yet.)
        let daemon = try DaemonProcess(["--wait-clients", "1", "--exit-after-replay"],
                                       environment: ["PENKIT_TEST_TRACE": tracePath(Self.trace)],
                                       launcher: { socket in
            ["/usr/bin/env", "PENKIT_TEST_SOCKET=\(socket)", "/bin/bash", "-c",
             #"exec "$0" "$@" --socket "$PENKIT_TEST_SOCKET" --replay <(cat "$PENKIT_TEST_TRACE")"#]
        })
        let client = try daemon.connect()
        try client.subscribe(["strokes"])
        let lines = try client.readAll()
        #expect(lines.filter { type($0) == "stroke" }.count == expected)
        #expect(type(lines.last ?? "") == "shutdown")
        #expect(daemon.waitForExit() == 0)
    }
}

/// A temporary directory removed on deinit.
final class TemporaryDirectory {
    let path: String
    init() throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("penkit-test-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }
    deinit { try? FileManager.default.removeItem(atPath: path) }
}

/// A process started with its output captured in a file (it may never make a socket).
final class StartedProcess {
    let process = Process()
    private let outputPath: String

    init(_ executable: String, _ arguments: [String]) throws {
        outputPath = FileManager.default.temporaryDirectory.appendingPathComponent("penkit-out-\(UUID().uuidString.prefix(8)).log").path
        _ = FileManager.default.createFile(atPath: outputPath, contents: nil)
        let log = FileHandle(forWritingAtPath: outputPath)
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardError = log
        process.standardOutput = log
        try process.run()
    }

    deinit {
        if process.isRunning { signalIfAlive(process.processIdentifier, SIGKILL); process.waitUntilExit() }
        try? FileManager.default.removeItem(atPath: outputPath)
    }

    var output: String { (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? "" }

    /// Waits for the exit; nil after `timeout` seconds.
    func waitForExit(timeout: Double = 60) -> Int32? {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning {
            if Date() > deadline { return nil }
            usleep(1_000)
        }
        return process.terminationStatus
    }

    var status: Int32? { process.isRunning ? nil : process.terminationStatus }

    /// SIGTERM, then the milliseconds until the process exited (throws if it did not within 20 s).
    func terminate() throws -> Int {
        let start = Date()
        signalIfAlive(process.processIdentifier, SIGTERM)
        guard waitForExit(timeout: 20) != nil else { throw TestFailure("no exit within 20 s of SIGTERM; output:\n\(output)") }
        return Int(Date().timeIntervalSince(start) * 1000)
    }
}

/// Issue #44, item 3: `penkit replay` on a FIFO nobody writes to hung. Every command that reads a
/// trace refuses such a FIFO at once, by name; the bound only limits failure (a hang).
@Suite struct TraceFifoCommandTests {
    static let penkit = URL(fileURLWithPath: penkitdPath).deletingLastPathComponent().appendingPathComponent("penkit").path

    @Test(arguments: [["replay"], ["replay", "--json"], ["replay", "--check"], ["pressure-feed", "--socket", "/nonexistent/penkit.sock"]])
    func aWriterlessFifoIsRefusedAtOnce(_ command: [String]) throws {
        let directory = try TemporaryDirectory()
        let fifo = directory.path + "/trace.fifo"
        #expect(mkfifo(fifo, 0o600) == 0)
        let process = try StartedProcess(Self.penkit, [command[0], fifo] + command.dropFirst())
        let status = process.waitForExit(timeout: 60)
        #expect(status != nil && status != 0, "penkit \(command.joined(separator: " ")): \(process.output)")
        #expect(process.output.contains("\(fifo): a FIFO with no writer"), "\(process.output)")
    }
}
