import Foundation
import Glibc
import PenInput
import Testing
@testable import penkitd

/// `--replay` reads a FIFO to its end whatever the order its writer and penkitd came in.
@Suite struct InterruptibleReadFifoTests {
    static let trace = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("traces/wacom-intuos4-6x9-stylus-tap.evemu")

    /// The writer wrote the whole trace and left before penkitd opened the FIFO; another reader
    /// kept the pipe (and its bytes) alive. poll(2) then never says the writer is gone: the read
    /// used to wait for it until penkitd was stopped.
    @Test func aFifoWhoseWriterLeftBeforeTheOpenIsReadToItsEnd() throws {
        let bytes = [UInt8](try Data(contentsOf: Self.trace))
        #expect(bytes.count < 65_536, "the whole trace must fit in the pipe's buffer")
        let fifo = FileManager.default.temporaryDirectory.appendingPathComponent("penkit-fifo-\(getpid())-\(UInt32.random(in: 0...UInt32.max))").path
        #expect(mkfifo(fifo, 0o600) == 0)
        defer { unlink(fifo) }
        let keeper = open(fifo, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        #expect(keeper >= 0)
        defer { close(keeper) }
        let writer = open(fifo, O_WRONLY | O_NONBLOCK | O_CLOEXEC)
        #expect(writer >= 0)
        let written = bytes.withUnsafeBytes { write(writer, $0.baseAddress, $0.count) }
        close(writer)
        #expect(written == bytes.count)

        // Bounded: a read that waits for a writer that never comes is stopped after 20 s and fails.
        let deadline = Date().addingTimeInterval(20)
        let read = try InterruptibleRead.read(path: fifo, limit: 1 << 20, isStopping: { Date() > deadline },
                                              refusal: { TraceFileKind.refusal($0, first: &$1) })
        #expect(read == bytes)
    }
}
