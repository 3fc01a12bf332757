import Foundation
import Glibc
@testable import PenInput
import Synchronization
import Testing

/// A trace read from a pipe (`penkit replay <(cat x.evemu)`): read as a file while its writer is
/// there; a FIFO nobody writes to, and anything else that is not a regular file, refused at once
/// by name instead of waited on (issue #44: `penkit replay` on a writerless FIFO hung).
@Suite struct TraceFifoTests {
    static let trace = TraceFixtures.trace("wacom-intuos4-6x9-stylus-tap.evemu")

    private func makeFifo() -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("penkit-\(getpid())-\(UUID().uuidString).fifo").path
        #expect(mkfifo(path, 0o600) == 0)
        return path
    }

    /// `TraceFile.load` on a thread of its own, waited for at most `bound` seconds: past it the
    /// test fails, and the FIFO is opened and closed for writing so that the reader stuck in it
    /// sees end of file and its thread ends.
    private func load(_ path: String, bound: Double) -> String? {
        let outcome = Mutex<String?>(nil)
        let start = Date()
        let reader = Thread {
            let text: String
            do {
                let trace = try TraceFile.load(path: path)
                text = "\(trace.devices.count) devices, \(trace.devices.map(\.events.count).reduce(0, +)) events"
            } catch {
                text = "error: \(error)"
            }
            outcome.withLock { $0 = text }
        }
        reader.start()
        while outcome.withLock({ $0 }) == nil && Date().timeIntervalSince(start) < bound { usleep(1_000) }
        guard let text = outcome.withLock({ $0 }) else {
            Issue.record("TraceFile.load still waiting on \(path) after \(bound) s")
            let fd = open(path, O_WRONLY | O_NONBLOCK)
            if fd >= 0 { close(fd) }
            return nil
        }
        return text
    }

    private var fromFile: String {
        get throws {
            let trace = try TraceFile.load(path: Self.trace)
            return "\(trace.devices.count) devices, \(trace.devices.map(\.events.count).reduce(0, +)) events"
        }
    }

    @Test func aFifoNobodyWritesToIsRefusedAtOnceNamingIt() throws {
        let fifo = makeFifo()
        defer { unlink(fifo) }
        let outcome = load(fifo, bound: 30)
        #expect(outcome?.hasPrefix("error: \(fifo): a FIFO with no writer") == true, "\(outcome ?? "")")
    }

    /// As a shell's `<(cat trace)`: a pipe whose writer is already running, by its /proc/self/fd path.
    @Test func aPipeWithItsWriterIsReadLikeTheFile() throws {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        defer { close(ends[0]) }
        let bytes = try Data(contentsOf: URL(fileURLWithPath: Self.trace))
        let writeEnd = ends[1]
        Thread {
            let handle = FileHandle(fileDescriptor: writeEnd, closeOnDealloc: true)
            handle.write(bytes)
            try? handle.close()
        }.start()
        #expect(load("/proc/self/fd/\(ends[0])", bound: 30) == (try fromFile))
    }

    @Test func aDeviceOrADirectoryIsRefusedAtOnce() throws {
        #expect(load("/dev/zero", bound: 30) == "error: /dev/zero: not a regular file (a character device)")
        let directory = FileManager.default.temporaryDirectory.path
        #expect(load(directory, bound: 30) == "error: \(directory): not a regular file (a directory)")
    }
}
