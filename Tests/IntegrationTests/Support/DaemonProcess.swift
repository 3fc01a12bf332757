import Foundation

/// The repository root, found from this file's path (never from ../shared).
let repositoryRoot: String = {
    var url = URL(fileURLWithPath: #filePath)
    for _ in 0..<4 { url.deleteLastPathComponent() }
    return url.path
}()

func tracePath(_ name: String) -> String { repositoryRoot + "/traces/" + name }

/// The built penkitd next to the test binary (swift test builds it: the test target depends on it).
let penkitdPath: String = {
    let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("penkitd").path
    if FileManager.default.isExecutableFile(atPath: beside) { return beside }
    return repositoryRoot + "/.build/debug/penkitd"
}()

struct TestFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// A penkitd started for one test on a socket in its own temporary directory.
final class DaemonProcess {
    let directory: String
    let socket: String
    let process = Process()
    private let logPath: String

    /// - Parameters:
    ///   - environment: extra environment variables for penkitd.
    ///   - launcher: a command that starts penkitd (e.g. systemd-socket-activate); the socket is then its job.
    ///   - logLevel: passed as `--log-level` (which overrides the config file); nil leaves it to the file.
    ///   - socketPath: where to listen, for a restart on an earlier penkitd's socket; else its own folder's.
    init(_ arguments: [String], socketMode: String? = nil, config: String = "/dev/null", logLevel: String? = "debug",
         environment: [String: String] = [:], launcher: ((String) -> [String])? = nil,
         stateDir: String? = nil, passStateDir: Bool = true, socketPath: String? = nil) throws {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("penkitd-test-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o755])
        socket = socketPath ?? directory + "/penkit.sock"
        logPath = directory + "/penkitd.log"
        _ = FileManager.default.createFile(atPath: logPath, contents: nil)
        var args = ["--config", config]
        if let logLevel { args += ["--log-level", logLevel] }
        // Each test's journal in its own directory, never the user's state directory.
        if !arguments.contains("--state-dir"), passStateDir { args += ["--state-dir", stateDir ?? directory + "/state"] }
        // fdatasync per stroke waits on the whole disk's writeback: on a host busy writing (builds) one
        // took over a minute. The journal's tests that are about syncing ask for `always` themselves.
        if !arguments.contains("--journal-fsync") { args += ["--journal-fsync", "never"] }
        if launcher == nil { args += ["--socket", socket] }
        if let socketMode { args += ["--socket-mode", socketMode] }
        if let launcher {
            let command = launcher(socket)
            process.executableURL = URL(fileURLWithPath: command[0])
            process.arguments = Array(command.dropFirst()) + [penkitdPath] + args + arguments
        } else {
            process.executableURL = URL(fileURLWithPath: penkitdPath)
            process.arguments = args + arguments
        }
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let log = FileHandle(forWritingAtPath: logPath)
        process.standardError = log
        process.standardOutput = log
        try process.run()
        let deadline = Date().addingTimeInterval(60)
        // bind(2) creates the file before listen(2): wait until the kernel lists it as listening.
        while !FileManager.default.fileExists(atPath: socket) || !Self.isListening(socket) {
            guard process.isRunning, Date() < deadline else {
                let state = process.isRunning ? "still running after 60 s"
                    : "exited with \(process.terminationStatus) (\(process.terminationReason == .uncaughtSignal ? "signal" : "exit"))"
                let pid = process.processIdentifier
                let exe = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/exe")) ?? "?"
                let wchan = (try? String(contentsOfFile: "/proc/\(pid)/wchan", encoding: .utf8)) ?? "?"
                let threads = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task").count) ?? 0
                throw TestFailure("penkitd did not create its socket (\(state); exe \(exe), wchan \(wchan), \(threads) threads); log:\n\(self.log)")
            }
            usleep(10_000)
        }
    }

    /// Whether /proc/net/unix shows a listening socket (flag __SO_ACCEPTCON) bound to `path`.
    static func isListening(_ path: String) -> Bool {
        guard let table = readProcFile("/proc/net/unix") else { return true }
        return table.split(separator: "\n").contains { line in
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            return fields.count >= 8 && fields[7] == path && fields[3] == "00010000"
        }
    }

    var log: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }

    func connect() throws -> RawConnection { try RawConnection(path: socket) }

    func signal(_ number: Int32) { signalIfAlive(process.processIdentifier, number) }

    /// Waits for penkitd to exit; its status, or nil after `timeout` seconds.
    func waitForExit(timeout: Double = 15) -> Int32? {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning {
            if Date() > deadline { return nil }
            usleep(10_000)
        }
        return process.terminationStatus
    }

    /// SIGTERM and wait; the exit status (nil if it hung, after which it is killed).
    @discardableResult
    func stop() -> Int32? {
        guard process.isRunning else { return process.terminationStatus }
        signal(SIGTERM)
        let status = waitForExit()
        if status == nil { signal(SIGKILL); _ = waitForExit(timeout: 5) }
        return status
    }

    deinit {
        if process.isRunning { signal(SIGKILL); _ = waitForExit(timeout: 5) }
        try? FileManager.default.removeItem(atPath: directory)
    }
}

/// Signals `pid` only while it is still running and not yet reaped. Foundation's Process reaps
/// its child on another thread and says `isRunning` a little later; under load the pid can
/// be reused by another test's penkitd in between, which a plain kill(2) would then stop.
func signalIfAlive(_ pid: Int32, _ number: Int32) {
    var info = siginfo_t()
    // WNOWAIT: look, do not reap. 0 with no pid filled in: still running.
    guard waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0, info._sifields._sigchld.si_pid == 0 else { return }
    kill(pid, number)
}

/// A /proc file read to its end. Foundation's String(contentsOfFile:) stops after one page of a
/// /proc file (its size reads as 0): with many sockets on the host, /proc/net/unix is longer, the
/// daemon's socket was cut off, and every test waiting for it failed at once.
func readProcFile(_ path: String) -> String? {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65536)
    while true {
        let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        if n < 0, errno == EINTR { continue }
        guard n > 0 else { break }
        bytes.append(contentsOf: chunk[..<n])
    }
    return String(decoding: bytes, as: UTF8.self)
}
