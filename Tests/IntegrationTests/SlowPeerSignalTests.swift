import Foundation
import Testing

/// SIGTERM ends penkitd promptly when a peer is slow rather than absent: a FIFO writer that
/// stalls halfway through a trace, and a client that stops reading while strokes pile up for it.
/// The bounds only limit failure (the old server took 29.8 s with a client that did not read);
/// the measured times are printed.
@Suite(.serialized)
struct SlowPeerSignalTests {
    static let trace = "wacom-cintiq-22hdt-pen.evemu"

    @Test func sigtermEndsAReplayWhoseFifoWriterStallsHalfway() throws {
        let directory = try TemporaryDirectory()
        let fifo = directory.path + "/trace.fifo"
        #expect(mkfifo(fifo, 0o600) == 0)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: tracePath(Self.trace)))
        // The writer is there before penkitd opens the FIFO (O_RDWR does not wait for a reader),
        // as a pipeline's is: penkitd refuses a FIFO nobody writes to.
        let fd = open(fifo, O_RDWR | O_CLOEXEC)
        #expect(fd >= 0)
        let writer = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
        let daemon = try StartedProcess(penkitdPath, ["--config", "/dev/null", "--socket", directory.path + "/s.sock",
                                                      "--state-dir", directory.path + "/state", "--replay", fifo])
        // A FIFO holds 64 KiB: once half the trace is written, penkitd has read most of it.
        writer.write(bytes.prefix(bytes.count / 2))
        let elapsed = try daemon.terminate()
        print("SIGTERM → exit, penkitd reading a FIFO whose writer stalled halfway: \(elapsed) ms")
        #expect(daemon.status == 0)
        try? writer.close()
    }

    @Test func sigtermWithAClientThatStoppedReadingEndsWithinTheGraceAndSaysWhereToResume() throws {
        // A large per-client queue, so the stalled client is behind but never overflows before SIGTERM.
        let directory = try TemporaryDirectory()
        let config = directory.path + "/penkitd.conf"
        try "client-buffer-bytes = 67108864\nclient-live-buffer-bytes = 1024\n"
            .write(toFile: config, atomically: true, encoding: .utf8)
        let daemon = try DaemonProcess(["--replay", tracePath(Self.trace), "--loop", "--wait-clients", "2"], config: config)
        let reader = try daemon.connect()
        let stalled = try daemon.connect()
        for client in [reader, stalled] { try client.subscribe(["strokes"]) }
        // 200 strokes (about 1 MB) are more than a socket buffer holds: the stalled client is behind.
        let before = try reader.read(until: { (seq($0) ?? 0) >= 200 }, timeout: 600)
        #expect(strokeSeqs(before).last ?? 0 >= 200)

        let start = Date()
        daemon.signal(SIGTERM)
        let after = try reader.readAll(timeout: 60)
        let status = daemon.waitForExit(timeout: 30)
        let elapsed = Int(Date().timeIntervalSince(start) * 1000)
        print("SIGTERM → exit with one client not reading (grace 1 s): \(elapsed) ms")
        #expect(status == 0, "\(daemon.log)")

        // The reader got every stroke, contiguous, then `shutdown`.
        let readerSeqs = strokeSeqs(before + after)
        #expect(readerSeqs == Array(1...UInt64(max(readerSeqs.count, 1))))
        #expect(type(after.last ?? "") == "shutdown")

        // The stalled client holds a contiguous prefix and, since it did not take the rest in
        // time, an `overflow` naming the last stroke it was sent: never a plain `shutdown`.
        let held = try stalled.readAll(timeout: 60)
        let heldSeqs = strokeSeqs(held)
        #expect(heldSeqs == Array(1...UInt64(max(heldSeqs.count, 1))).prefix(heldSeqs.count).map { $0 })
        #expect(heldSeqs.count < readerSeqs.count)
        let last = held.last ?? ""
        #expect(type(last) != "shutdown", "plain shutdown after \(heldSeqs.count) of \(readerSeqs.count) strokes")
        if type(last) == "error" {
            #expect(object(last)["code"] as? String == "overflow")
            #expect((object(last)["lastSentSeq"] as? NSNumber)?.intValue == heldSeqs.count)
        }
    }
    /// `penkit replay` reads a FIFO whose writer is there (as a pipeline's is): a stalled writer
    /// is waited for, which the default disposition of SIGTERM still ends at once, and what the
    /// writer sends is replayed as the file is. (A FIFO nobody writes to is refused at once:
    /// TraceFifoCommandTests.)
    @Test func penkitReplayReadsAFifoWithItsWriterAndSigtermEndsAStall() throws {
        let penkit = URL(fileURLWithPath: penkitdPath).deletingLastPathComponent().appendingPathComponent("penkit").path
        let directory = try TemporaryDirectory()
        let fifo = directory.path + "/trace.fifo"
        #expect(mkfifo(fifo, 0o600) == 0)
        // O_RDWR does not wait for a reader: the writer is there before penkit opens the FIFO.
        func writer() -> FileHandle { FileHandle(fileDescriptor: open(fifo, O_RDWR | O_CLOEXEC), closeOnDealloc: true) }

        let stalled = writer()
        let waiting = try StartedProcess(penkit, ["replay", fifo, "--json"])
        try waitFor { holdsOpen(waiting.process.processIdentifier, fifo) }
        let elapsed = try waiting.terminate()
        print("SIGTERM → exit, penkit replay waiting on a FIFO writer that sends nothing: \(elapsed) ms")
        #expect(waiting.process.terminationReason == .uncaughtSignal)
        try? stalled.close()

        let (_, fromFile) = try run(penkit, ["replay", tracePath(Self.trace), "--json"])
        let sending = writer()
        let bytes = try Data(contentsOf: URL(fileURLWithPath: tracePath(Self.trace)))
        Thread {
            sending.write(bytes)
            try? sending.close()
        }.start()
        let (status, fromFifo) = try run(penkit, ["replay", fifo, "--json"])
        #expect(status == 0)
        #expect(fromFifo == fromFile)
    }
}

/// Whether `pid` has `path` open: penkit opens a FIFO without waiting and then polls it.
private func holdsOpen(_ pid: Int32, _ path: String) -> Bool {
    let fds = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd")) ?? []
    return fds.contains { (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\($0)")) == path }
}
