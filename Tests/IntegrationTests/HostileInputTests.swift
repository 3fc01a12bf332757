import Foundation
import Testing

/// Traces, sockets and command lines as a hostile or careless user gives them (issue #17).
@Suite(.serialized)
struct HostileInputTests {
    static let trace = "wacom-intuos4-6x9-stylus-tap.evemu"

    @Test func eventTimesNear2To64AreReplayedWithoutATrap() throws {
        // Times just below 2^64 µs: moving them onto the run's clock used to overflow.
        let top: UInt64 = UInt64.max - 10_000_000
        var first: UInt64?
        let trace = try MutatedTrace(Self.trace) { _, time in
            if first == nil { first = time }
            return top + (time - first!) / 1000
        }
        let daemon = try DaemonProcess(["--replay", trace.path, "--wait-clients", "1", "--exit-after-replay"])
        let client = try daemon.connect()
        try client.subscribe(["strokes"])
        let lines = try client.readAll()
        #expect(type(lines.last ?? "") == "shutdown")
        #expect(daemon.waitForExit() == 0)
    }

    @Test func eventTimesNear2To64WithLoopEndTheLoopWithAWarningNotATrap() throws {
        // Issue #32: the second pass's times saturated at 2^64 µs and the engine trapped (SIGILL).
        let top: UInt64 = 18_446_744_073_700 * 1_000_000
        var first: UInt64?
        let trace = try MutatedTrace(Self.trace) { _, time in
            if first == nil { first = time }
            return top + (time - first!)
        }
        let daemon = try DaemonProcess(["--replay", trace.path, "--loop", "--wait-clients", "1", "--exit-after-replay"])
        let client = try daemon.connect()
        try client.subscribe(["frames", "strokes"])
        let lines = try client.readAll()
        #expect(type(lines.last ?? "") == "shutdown")
        #expect(lines.contains { type($0) == "stroke" }, "the first pass is replayed")
        #expect(daemon.waitForExit() == 0)
        #expect(daemon.log.contains("stops looping"), "\(daemon.log)")
    }

    @Test func aFarTimeJumpWithLoopIsRefusedNamingTheTrace() throws {
        let count = try String(contentsOfFile: tracePath(Self.trace), encoding: .utf8)
            .split(separator: "\n").filter { $0.hasPrefix("E: ") }.count
        // The last frame 9.3·10^12 s after the others, as the fuzzer found.
        let trace = try MutatedTrace(Self.trace) { index, time in index >= count - 3 ? time + 9_300_000_000_000 * 1_000_000 : time }
        let directory = try TemporaryDirectory()
        let (status, output) = try runPenkitd(["--config", "/dev/null", "--socket", directory.path + "/s.sock",
                                               "--state-dir", directory.path + "/state", "--replay", trace.path, "--loop"])
        #expect(status == 1, "\(output)")  // an error exit, not a trap (SIGILL/SIGTRAP)
        #expect(output.contains(trace.path))
        #expect(output.contains("span"))
    }

    @Test func aTraceLibinputIgnoresIsNamedInTheError() throws {
        // No resolution on x and y: libinput ignores such a tablet, and so does penkit.
        let text = try String(contentsOfFile: tracePath(Self.trace), encoding: .utf8)
        let stripped = text.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
            guard line.hasPrefix("A: 00 ") || line.hasPrefix("A: 01 ") else { return String(line) }
            var fields = line.split(separator: " ").map(String.init)
            if fields.count == 7 { fields[6] = "0" }
            return fields.joined(separator: " ")
        }.joined(separator: "\n")
        let directory = try TemporaryDirectory()
        let path = directory.path + "/no-resolution.evemu"
        try stripped.write(toFile: path, atomically: true, encoding: .utf8)
        let (status, output) = try runPenkitd(["--config", "/dev/null", "--socket", directory.path + "/s.sock",
                                               "--state-dir", directory.path + "/state", "--replay", path])
        #expect(status == 1)
        #expect(output.contains(path), "\(output)")
        #expect(output.contains("resolution"), "\(output)")
    }

    @Test func aSecondPenkitdOnALiveSocketIsRefusedAndTheFirstKeepsServing() throws {
        let first = try DaemonProcess([])
        let (status, output) = try runPenkitd(["--config", "/dev/null", "--socket", first.socket,
                                               "--state-dir", first.directory + "/state2"])
        #expect(status == 1)
        #expect(output.contains("in use"), "\(output)")
        // The first still owns its socket, reachable.
        let client = try first.connect()
        #expect(type(try client.readLine() ?? "") == "hello")
        #expect(first.stop() == 0)
    }

    @Test func sighupNeverChmodsThroughASymlink() throws {
        let config = try TemporaryDirectory()
        let configPath = config.path + "/penkitd.conf"
        try "socket-mode = 0666\n".write(toFile: configPath, atomically: true, encoding: .utf8)
        let daemon = try DaemonProcess([], config: configPath)
        let target = config.path + "/secret"
        try "root only\n".write(toFile: target, atomically: true, encoding: .utf8)
        #expect(chmod(target, 0o600) == 0)
        #expect(unlink(daemon.socket) == 0)
        #expect(symlink(target, daemon.socket) == 0)
        daemon.signal(SIGHUP)
        try waitFor { daemon.log.contains("configuration reload failed") }
        #expect(daemon.log.contains("no longer the socket"))
        var st = stat()
        #expect(stat(target, &st) == 0)
        #expect(st.st_mode & 0o777 == 0o600)
        #expect(daemon.stop() == 0)
        // penkitd removes only the socket it bound: the symlink stays.
        #expect(lstat(daemon.socket, &st) == 0 && (st.st_mode & S_IFMT) == S_IFLNK)
    }

    @Test func theCLISeparatesUsageErrorsFromRuntimeFailures() throws {
        let penkit = URL(fileURLWithPath: penkitdPath).deletingLastPathComponent().appendingPathComponent("penkit").path
        let directory = try TemporaryDirectory()
        let (usage, _) = try run(penkit, ["replay", "--speed", "-1", tracePath(Self.trace)])
        #expect(usage == 64)
        let (runtime, output) = try run(penkit, ["strokes", "--socket", directory.path + "/nobody.sock"])
        // No penkitd there: EX_UNAVAILABLE (69, sysexits.h), one line, not the usage error.
        #expect(runtime == 69, "\(output)")
    }
}

/// Runs a program to its exit: (status, its output).
func run(_ executable: String, _ arguments: [String], in directory: String? = nil) throws -> (Int32, String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
    let pipe = Pipe()
    process.standardError = pipe
    process.standardOutput = pipe
    try process.run()
    let output = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: output, as: UTF8.self))
}
