import Foundation
import Glibc
@testable import penkitd
import Testing

/// penkitd reads its config only from a regular file (or /dev/null, the usual "no config"): a
/// FIFO with no writer used to hold the start until SIGTERM, and a directory or a device is a
/// mistake that deserves its own sentence, not a read error.
@Suite struct ConfigFileTypeTests {
    /// Applies `path` with a stop after `bound` seconds, so that a read that waits (the bug)
    /// ends the test as a failure instead of hanging it.
    private func outcome(_ path: String, bound: Double = 2) -> (error: (any Error)?, seconds: Double) {
        var config = DaemonConfig()
        let start = Date()
        do {
            try ConfigFile.apply(path: path, required: true, to: &config,
                                 isStopping: { Date().timeIntervalSince(start) > bound })
            return (nil, Date().timeIntervalSince(start))
        } catch {
            return (error, Date().timeIntervalSince(start))
        }
    }

    @Test func aFifoWithNoWriterIsRefusedAtOnceByName() throws {
        let fifo = FileManager.default.temporaryDirectory.appendingPathComponent("penkitd-\(getpid())-\(UUID().uuidString).conf").path
        #expect(mkfifo(fifo, 0o600) == 0)
        defer { unlink(fifo) }
        let (error, seconds) = outcome(fifo)
        let refusal = try #require(error as? ConfigFile.Error, "\(String(describing: error))")
        #expect(refusal.description
            == "config file \(fifo) is not a regular file (a FIFO): penkitd reads its config only from a file")
        // Refused before any read: well inside the 2 s the stop above allows.
        #expect(seconds < 1)
    }

    @Test func aDirectoryIsRefusedAsADirectory() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("penkitd-\(getpid())-\(UUID().uuidString).d").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let refusal = try #require(outcome(directory).error as? ConfigFile.Error)
        #expect(refusal.message == "is not a regular file (a directory): penkitd reads its config only from a file")
    }

    /// Not a fix but its limit: `--config /dev/null` (the tests' and `penkit bench latency`'s
    /// "no config") is a character device and must stay accepted.
    @Test func devNullIsStillAnEmptyConfig() {
        #expect(outcome("/dev/null").error == nil)
    }
}
