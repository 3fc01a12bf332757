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
