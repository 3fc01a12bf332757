import Foundation
@testable import penkitd
import Testing

/// The stroke journal across restarts: `since` after a restart, a torn tail, corruption,
/// a newer format and an unwritable state directory, each with real penkitd processes.
@Suite(.serialized)
struct JournalRecoveryTests {
    static let trace = "wacom-dth2242-pen.evemu"

    /// `interval` (the default) syncs on a background queue; `always` on the input thread.
    @Test(arguments: ["always", "interval"])
    func sinceWorksAcrossARestartAndSeqContinues(fsync: String) throws {
        let state = try StateDirectoryFixture()
        let expected = try tipDowns(in: Self.trace)
        let first = try strokesOfOneRun(Self.trace, state: state, fsync: fsync)
        #expect(first.count == expected)

        let daemon = try DaemonProcess(["--replay", tracePath(Self.trace), "--wait-clients", "1"], stateDir: state.path)
        let client = try daemon.connect()
        let (hello, replayed) = try resume(client, since: 0)
        #expect((hello["lastSeq"] as? NSNumber)?.intValue == expected)
        #expect((hello["settings"] as? [String: String])?["journal"] == "on")
        // Byte for byte what the first run's client was sent.
        #expect(replayed == first)
        // The second run's strokes number on from the first's.
        var live: [UInt64] = []
        while live.count < expected, let line = try client.readLine() {
            if type(line) == "stroke", let s = seq(line) { live.append(s) }
        }
        #expect(live == Array(UInt64(expected + 1)...UInt64(2 * expected)))
        #expect(daemon.stop() == 0)
    }

    /// `--history-bytes` bounds what a restart restores for `since`: the newest strokes whose
    /// lines fit once deflated (as the running history holds them), oldest leaving first, and a
    /// `history_gap` for the rest (which the journal keeps).
    @Test func historyBytesKeepsTheNewestStrokesThatFitAndReportsTheGap() throws {
        let state = try StateDirectoryFixture()
        let first = try strokesOfOneRun(Self.trace, state: state)
        #expect(first.count > 4)
        let whole = first.map { $0.utf8.count + 1 }
        let deflated = try first.map { try #require(DeflatedLine(Array(($0 + "\n").utf8))).bytes.count }
        // Room for the newest three lines deflated and half of the fourth, and for each of the
        // three whole (a line over the bound leaves at once, running, before it is deflated).
        let bound = max(deflated.suffix(3).reduce(0, +) + deflated[first.count - 4] / 2, whole.suffix(3).max()!)
        // What stays: the newest strokes whose deflated lines fit, up to the first line over the bound.
        var kept = 0
        while kept < first.count, whole[first.count - kept - 1] <= bound,
              deflated.suffix(kept + 1).reduce(0, +) <= bound { kept += 1 }
        #expect(kept >= 3 && kept < first.count, "kept \(kept) of \(first.count)")
        // Whole, fewer would fit: the bound holds the newest `wholeFit` lines as they are.
        var wholeFit = 0
        while wholeFit < first.count, whole.suffix(wholeFit + 1).reduce(0, +) <= bound { wholeFit += 1 }
        #expect(wholeFit < kept, "whole \(wholeFit), deflated \(kept)")

        let daemon = try DaemonProcess(["--replay", tracePath(Self.trace), "--wait-clients", "1",
                                        "--history-bytes", String(bound)], stateDir: state.path)
        let client = try daemon.connect()
        let hello = object(try client.readLine() ?? "")
        #expect((hello["lastSeq"] as? NSNumber)?.intValue == first.count)
        #expect((hello["oldestSeq"] as? NSNumber)?.intValue == first.count - kept + 1)
        try client.subscribe(["strokes"], since: 0)
        let gap = object(try client.readLine() ?? "")
        #expect(gap["code"] as? String == "history_gap")
        #expect((gap["message"] as? String)?.hasPrefix("strokes 1...\(first.count - kept) ") == true)
        let subscribed = object(try client.readLine() ?? "")
        #expect((subscribed["replaying"] as? NSNumber)?.intValue == kept)
        var replayed: [String] = []
        while replayed.count < kept, let next = try client.readLine() {
            if type(next) == "stroke" { replayed.append(next) }
        }
        #expect(replayed == Array(first.suffix(kept)), "byte for byte the newest strokes the first run sent")
        #expect(daemon.stop() == 0)
    }

    @Test func aTornTailIsCutWithAWarningAndTheRestIsServed() throws {
        let state = try StateDirectoryFixture()
        let first = try strokesOfOneRun(Self.trace, state: state)
        #expect(first.count > 1)
        let newest = try #require(try state.segments().last)
        let size = try #require(try FileManager.default.attributesOfItem(atPath: newest)[.size] as? Int)
        #expect(truncate(newest, off_t(size - 7)) == 0)

        let daemon = try DaemonProcess(["--replay", tracePath(Self.trace), "--wait-clients", "1"], stateDir: state.path)
        let client = try daemon.connect()
        let (hello, replayed) = try resume(client, since: 0)
        // Everything before the torn record, byte for byte; the torn stroke's `began` record
        // survived, so it comes back as cancelled (a torn record was never synced, so never sent).
        #expect(replayed.count == first.count)
        #expect(Array(replayed.dropLast()) == Array(first.dropLast()))
        let last = replayed.last ?? ""
        #expect(isCancelled(last) && strokeID(last) == strokeID(first.last ?? ""))
        #expect((object(last)["stroke"] as? [String: Any])?["points"] as? [Any] == nil
                || ((object(last)["stroke"] as? [String: Any])?["points"] as? [Any])?.isEmpty == true)
        #expect((hello["lastSeq"] as? NSNumber)?.intValue == first.count)
        #expect(daemon.log.contains("torn tail truncated"))
        #expect(daemon.log.contains(newest))
        #expect(daemon.stop() == 0)
    }

    @Test func corruptionInTheMiddleStartsWithoutHistoryAndNeverReusesASeq() throws {
        let state = try StateDirectoryFixture()
        let first = try strokesOfOneRun(Self.trace, state: state)
        let segment = try #require(try state.segments().first)
        // One byte inside the first record's payload: its checksum fails, valid records follow.
        let handle = try #require(FileHandle(forUpdatingAtPath: segment))
        try handle.seek(toOffset: 16 + 36 + 20)
        let original = try #require(try handle.read(upToCount: 1)?.first)
        try handle.seek(toOffset: 16 + 36 + 20)
        try handle.write(contentsOf: Data([original ^ 0x5A]))
        try handle.close()

        let daemon = try DaemonProcess(["--replay", tracePath(Self.trace), "--wait-clients", "1"], stateDir: state.path)
        let client = try daemon.connect()
        let (hello, replayed) = try resume(client, since: 0)
        #expect(replayed.isEmpty)
        #expect((hello["settings"] as? [String: String])?["journal"] == "corrupt-started-without-history")
        #expect(daemon.log.contains("journal corrupt"))
        #expect(daemon.log.contains(segment))
        let live = try #require(try client.read(until: { type($0) == "stroke" }).last)
        #expect(seq(live) == UInt64(first.count + 1))
        let aside = try FileManager.default.contentsOfDirectory(atPath: state.path).filter { $0.hasPrefix("journal.corrupt-") }
        #expect(aside.count == 1)
        #expect(daemon.stop() == 0)
    }

    @Test func aNewerFormatIsRefusedAndLeftAlone() throws {
        let state = try StateDirectoryFixture()
        _ = try strokesOfOneRun(Self.trace, state: state)
        let segment = try #require(try state.segments().first)
        let handle = try #require(FileHandle(forUpdatingAtPath: segment))
        try handle.seek(toOffset: 8)
        try handle.write(contentsOf: Data([2, 0, 0, 0]))
        try handle.close()
        let before = try Data(contentsOf: URL(fileURLWithPath: segment))

        let (status, output) = try runPenkitd(["--config", "/dev/null", "--state-dir", state.path,
                                               "--socket", state.path + "/penkit.sock", "--replay", tracePath(Self.trace)])
        #expect(status != 0)
        #expect(output.contains(segment))
        #expect(output.contains("journal format 2"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: segment)) == before)
    }

    @Test func anUnwritableStateDirectoryServesWithoutAJournalAndSaysSo() throws {
        let daemon = try DaemonProcess(["--state-dir", "/proc/penkit-cannot-exist"])
        let client = try daemon.connect()
        let hello = object(try client.readLine() ?? "")
        #expect((hello["settings"] as? [String: String])?["journal"] == "unavailable")
        #expect(daemon.log.contains("journal unavailable"))
        #expect(daemon.stop() == 0)
    }
}

/// Runs penkitd to its exit: (status, stderr and stdout).
func runPenkitd(_ arguments: [String]) throws -> (Int32, String) { try run(penkitdPath, arguments) }

/// Issue #32: a replay journaled into the default state directory, the live daemon's, and a client
/// resuming with `since: 0` got 44 strokes of earlier runs before the trace's own.
@Suite(.serialized)
struct ReplayJournalPlaceTests {
    static let trace = "wacom-dth2242-pen.evemu"

    /// The hello and the strokes a `since: 0` client gets from one replay to the end.
    static func run(_ daemon: DaemonProcess) throws -> (hello: [String: Any], strokes: Int) {
        let client = try daemon.connect()
        let hello = object(try client.readLine() ?? "")
        try client.subscribe(["strokes"], since: 0)
        let lines = try client.readAll()
        #expect(daemon.waitForExit() == 0)
        return (hello["settings"] as? [String: Any] ?? [:], lines.filter { type($0) == "stroke" }.count)
    }

    @Test func aReplayWithoutStateDirKeepsNoJournalAndMixesInNoOtherRunsStrokes() throws {
        let home = try TemporaryDirectory()
        // Where the default state directory would be, for root and for anyone else.
        let environment = ["STATE_DIRECTORY": home.path + "/state", "XDG_STATE_HOME": home.path + "/xdg"]
        let expected = try tipDowns(in: Self.trace)
        for _ in 0..<2 {
            let daemon = try DaemonProcess(["--replay", tracePath(Self.trace), "--wait-clients", "1", "--exit-after-replay"],
                                           environment: environment, passStateDir: false)
            let (settings, strokes) = try Self.run(daemon)
            #expect(strokes == expected, "only this run's strokes")
            #expect(settings["journal"] as? String == "off")
            #expect(settings["history"] as? String == "this-run")
        }
        #expect(!FileManager.default.fileExists(atPath: home.path + "/state/journal"))
        #expect(!FileManager.default.fileExists(atPath: home.path + "/xdg/penkit/journal"))
    }

    @Test func aReplayGivenAStateDirJournalsThereAndSaysSo() throws {
        let state = try TemporaryDirectory()
        let expected = try tipDowns(in: Self.trace)
        var counts: [Int] = []
        for _ in 0..<2 {
            let daemon = try DaemonProcess(["--replay", tracePath(Self.trace), "--wait-clients", "1", "--exit-after-replay"],
                                           stateDir: state.path)
            let (settings, strokes) = try Self.run(daemon)
            #expect(settings["journal"] as? String == "on")
            #expect(settings["history"] as? String == "replay")
            counts.append(strokes)
        }
        // The second run resumes the first's history from its own directory: both runs' strokes.
        #expect(counts == [expected, 2 * expected])
    }
}
