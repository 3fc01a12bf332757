import Foundation
import Glibc
@testable import PenInput
import Synchronization
import Testing

/// A trace read from a FIFO (`penkit replay <(cat x.evemu)`, or a named one): read as a file once
/// a writer comes, and refused by name when none comes within the wait, instead of waiting forever.
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
    private func load(_ fifo: String, writerWait: Duration, bound: Double) -> (outcome: String?, seconds: Double) {
        let outcome = Mutex<String?>(nil)
        let start = Date()
        let reader = Thread {
            let text: String
            do {
                let trace = try TraceFile.load(path: fifo, writerWait: writerWait)
                text = "\(trace.devices.count) devices, \(trace.devices.map(\.events.count).reduce(0, +)) events"
            } catch {
                text = "error: \(error)"
            }
            outcome.withLock { $0 = text }
        }
        reader.start()
        while outcome.withLock({ $0 }) == nil && Date().timeIntervalSince(start) < bound { usleep(1_000) }
        let seconds = Date().timeIntervalSince(start)
        guard let text = outcome.withLock({ $0 }) else {
            Issue.record("TraceFile.load still waiting on the FIFO after \(bound) s")
            let fd = open(fifo, O_WRONLY | O_NONBLOCK)
            if fd >= 0 { close(fd) }
            return (nil, seconds)
        }
        return (text, seconds)
    }

    /// Writes `bytes` into the FIFO from a thread of its own, once a reader has it open.
    private func write(_ bytes: Data, to fifo: String, after delay: Double = 0) {
        Thread {
            if delay > 0 { Thread.sleep(forTimeInterval: delay) }  // the late writer under test, not a wait for a condition
            if let handle = FileHandle(forWritingAtPath: fifo) {
                handle.write(bytes)
                try? handle.close()
            }
        }.start()
    }

    private var fromFile: String {
        get throws {
            let trace = try TraceFile.load(path: Self.trace)
            return "\(trace.devices.count) devices, \(trace.devices.map(\.events.count).reduce(0, +)) events"
        }
    }

    @Test func aFifoNobodyOpensIsRefusedAfterTheWaitNamingIt() throws {
        let fifo = makeFifo()
        defer { unlink(fifo) }
        let (outcome, seconds) = load(fifo, writerWait: .milliseconds(300), bound: 5)
        #expect(outcome == "error: \(fifo): no writer opened the FIFO within 0.3 s")
        #expect(seconds >= 0.3)
    }

    @Test func aFifoWithAWriterIsReadLikeTheFile() throws {
        let fifo = makeFifo()
        defer { unlink(fifo) }
        write(try Data(contentsOf: URL(fileURLWithPath: Self.trace)), to: fifo)
        let (outcome, _) = load(fifo, writerWait: .seconds(10), bound: 30)
        #expect(outcome == (try fromFile))
    }

    @Test func aWriterThatComesWithinTheWaitIsRead() throws {
        let fifo = makeFifo()
        defer { unlink(fifo) }
        write(try Data(contentsOf: URL(fileURLWithPath: Self.trace)), to: fifo, after: 0.3)
        let (outcome, _) = load(fifo, writerWait: .seconds(10), bound: 30)
        #expect(outcome == (try fromFile))
    }

    @Test func aWriterThatSendsNothingIsAnEmptyTraceNotAWait() throws {
        let fifo = makeFifo()
        defer { unlink(fifo) }
        write(Data(), to: fifo)
        let (outcome, _) = load(fifo, writerWait: .seconds(10), bound: 30)
        #expect(outcome == "error: \(fifo): empty file (no lines but comments): not a trace")
    }
}
