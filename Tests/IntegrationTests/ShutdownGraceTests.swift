import Foundation
import Testing

/// Stopping never loses a stroke silently: a client that reads gets every stroke, then `shutdown`;
/// one that does not read in time is cut off without `shutdown` (with `overflow` and the seq to
/// resume from when it can still take a line), never a plain `shutdown` with strokes missing.
@Suite(.serialized)
struct ShutdownGraceTests {
    static let trace = "wacom-cintiq-22hdt-pen.evemu"

    @Test func exitAfterReplayDeliversEveryStrokeOrSaysWhereToResume() throws {
        let expected = try tipDowns(in: Self.trace)
        // Little in NIO per client: most strokes wait in penkitd's own queue when a client does not read.
        let directory = try TemporaryDirectory()
        let config = directory.path + "/penkitd.conf"
        try "client-live-buffer-bytes = 1024\n".write(toFile: config, atomically: true, encoding: .utf8)
        let daemon = try DaemonProcess(["--replay", tracePath(Self.trace), "--wait-clients", "3", "--exit-after-replay"],
                                       config: config)
        let reader = try daemon.connect()
        let late = try daemon.connect()     // starts reading once the reader has everything
        let stalled = try daemon.connect()  // reads only after penkitd has exited
        for client in [reader, late, stalled] { try client.subscribe(["strokes"]) }
        let read = try reader.readAll()
        #expect(strokeSeqs(read) == Array(1...UInt64(expected)))
        #expect(type(read.last ?? "") == "shutdown")
        try expectNothingLostSilently(try late.readAll(), expected: expected)
        #expect(daemon.waitForExit(timeout: 60) == 0)
        try expectNothingLostSilently(try stalled.readAll(), expected: expected)
    }

    /// Contiguous strokes from 1; `shutdown` only after all of them; an `overflow` names the last one received.
    private func expectNothingLostSilently(_ lines: [String], expected: Int) throws {
        let seqs = strokeSeqs(lines)
        #expect(seqs == Array(1...UInt64(max(seqs.count, 1))).prefix(seqs.count).map { $0 })
        let last = lines.last ?? ""
        if type(last) == "shutdown" { #expect(seqs.count == expected, "plain shutdown after \(seqs.count) of \(expected) strokes") }
        if type(last) == "error" {
            #expect(object(last)["code"] as? String == "overflow")
            #expect((object(last)["lastSentSeq"] as? NSNumber)?.intValue == seqs.count)
        }
    }
}

/// The seqs of the complete stroke lines (a line cut off by a closed connection does not parse).
func strokeSeqs(_ lines: [String]) -> [UInt64] {
    lines.filter { type($0) == "stroke" }.compactMap(seq)
}

/// A client that shuts down its write side after subscribing keeps its subscription (issue #17:
/// it was dropped without a message).
@Suite struct HalfCloseTests {
    @Test func aHalfClosedClientStillGetsEveryStrokeAndShutdown() throws {
        let trace = "wacom-dth2242-pen.evemu"
        let expected = try tipDowns(in: trace)
        let daemon = try DaemonProcess(["--replay", tracePath(trace), "--wait-clients", "1", "--exit-after-replay"])
        let client = try daemon.connect()
        try client.subscribe(["strokes"])
        #expect(shutdown(client.fd, Int32(SHUT_WR)) == 0)
        let lines = try client.readAll()
        #expect(strokeSeqs(lines) == Array(1...UInt64(expected)))
        #expect(type(lines.last ?? "") == "shutdown")
        #expect(daemon.waitForExit() == 0)
    }
}

/// A `since` replay larger than the client buffer is streamed as the client reads, not pushed into
/// its buffer at once (issue #17: it overflowed at once, even for a fast reader).
@Suite struct SinceStreamingTests {
    @Test func aReplayLargerThanTheClientBufferReachesAFastReader() throws {
        let state = try StateDirectoryFixture()
        let strokes = try strokesOfOneRun("wacom-cintiq-22hdt-pen.evemu", state: state)
        #expect(strokes.reduce(0) { $0 + $1.utf8.count } > 4 * 16384)  // the replay is far larger than the buffer
        // A second penkitd serves them from its journal; no live input competes.
        let daemon = try DaemonProcess(["--client-buffer-bytes", "16384"], stateDir: state.path)
        let (_, replayed) = try resume(try daemon.connect(), since: 0)
        #expect(replayed == strokes)
        #expect(daemon.stop() == 0)
    }
}
