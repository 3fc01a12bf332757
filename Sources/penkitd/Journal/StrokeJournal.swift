import Glibc
import Logging
import PenKit
import Synchronization

/// The durable stroke journal: every finalized stroke is appended, with its seq and
/// its exact bytes, before any client is sent it, so that a restart recovers it and
/// `since` works across restarts. A failing disk never stops penkitd: strokes are still
/// served, the failure is logged once, and writing resumes when the disk takes it again.
final class StrokeJournal: Sendable {
    let directory: String
    private let writer: Mutex<JournalWriter>
    private let failure = Mutex<String?>(nil)
    private let logger: Logger

    private init(directory: String, writer: consuming JournalWriter, logger: Logger) {
        self.directory = directory
        self.writer = Mutex(writer)
        self.logger = logger
    }

    /// What a start found: the journal (nil when disabled), the strokes to serve to `since`
    /// (the newest `historyStrokes` within `restoreBytes(historyBytes)` of whole lines, oldest
    /// first: the history chooses the ones that fit once deflated) and where numbering continues.
    struct Opened: Sendable {
        var journal: StrokeJournal?
        var history: [JournalRecord] = []
        var lastSeq: UInt64 = 0
        var lastStrokeID: UInt64 = 0
        /// One word for `hello`: on, off, or recovered-without-history.
        var status: String
    }

    /// The whole lines recovery keeps for the history to choose from (`StrokeHistory.restore`).
    static func restoreBytes(_ historyBytes: Int) -> Int {
        let (bytes, overflow) = historyBytes.multipliedReportingOverflow(by: StrokeHistory.restoreWholeFactor)
        return overflow ? .max : bytes
    }

    /// Opens `stateDirectory/journal`, recovering what it holds.
    /// A journal corrupt in the middle is moved aside and penkitd starts without history,
    /// numbering after the highest seq found in it; this is logged as an error.
    ///
    /// A state directory that cannot be created or written does not stop penkitd: it serves
    /// without a journal (nothing durable, `since` only within this run) and logs an error.
    /// A newer format does: its strokes are never overwritten by an older penkitd.
    static func open(stateDirectory: String, options: JournalOptions, historyStrokes: Int, historyBytes: Int,
                     logger: Logger) throws(JournalError) -> Opened {
        guard options.enabled else { return Opened(journal: nil, status: "off") }
        do {
            return try recover(stateDirectory: stateDirectory, options: options,
                               keeping: NewestStrokes(count: historyStrokes, bytes: restoreBytes(historyBytes)), logger: logger)
        } catch .system(let what, let code) {
            logger.error("journal unavailable; serving without it (strokes are not durable)",
                         metadata: ["error": "\(JournalError.system(what, code))"])
            return Opened(journal: nil, status: "unavailable")
        }
    }

    private static func recover(stateDirectory: String, options: JournalOptions, keeping: NewestStrokes,
                                logger: Logger) throws(JournalError) -> Opened {
        let directory = stateDirectory + "/journal"
        try JournalFiles.makeDirectory(stateDirectory)
        try JournalFiles.makeDirectory(directory)
        var status = "on"
        var recovery: JournalRecovery
        do {
            recovery = try JournalRecovery.read(directory: directory, keeping: keeping)
        } catch .corrupt(let path, let offset, let reason) {
            let found = JournalRecovery.highestNumbers(directory: directory)
            let aside = directory + ".corrupt-\(time(nil))"
            guard rename(directory, aside) == 0 else { throw .system("cannot move the corrupt journal aside to \(aside)", errno) }
            logger.error("journal corrupt; moved it aside and starting without history", metadata: [
                "file": "\(path)", "offset": "\(offset)", "reason": "\(reason)", "moved-to": "\(aside)",
                "seq-continues-after": "\(found.seq)"])
            try JournalFiles.makeDirectory(directory)
            recovery = JournalRecovery(kept: keeping)
            recovery.lastSeq = found.seq
            recovery.lastStrokeID = found.strokeID
            status = "corrupt-started-without-history"
        }
        for repair in recovery.repairs { logger.warning("journal: torn tail truncated", metadata: ["repair": "\(repair)"]) }
        if let floor = SeqFloor.read(directory: directory) {
            recovery.lastSeq = max(recovery.lastSeq, floor.seq)
            recovery.lastStrokeID = max(recovery.lastStrokeID, floor.strokeID)
        }
        let floor = try SeqFloor(directory: directory, seq: recovery.lastSeq, strokeID: recovery.lastStrokeID,
                                 sync: options.fsync != .never)
        var writer = try JournalWriter(directory: directory, options: options, segments: recovery.segments, floor: floor)
        writer.prune(now: Self.wallClock())
        let journal = StrokeJournal(directory: directory, writer: writer, logger: logger)
        var opened = Opened(journal: journal, lastSeq: recovery.lastSeq, lastStrokeID: recovery.lastStrokeID, status: status)
        var kept = recovery.kept
        // Strokes open at a crash were never finalized: each is reported as cancelled, once.
        for began in recovery.openStrokes {
            guard let line = OpenStrokeCancellation.line(began: began.payload, seq: opened.lastSeq + 1) else {
                logger.warning("journal: an open stroke's began record is unreadable; not reported", metadata: ["stroke": "\(began.strokeID)"])
                continue
            }
            opened.lastSeq += 1
            journal.record(.stroke, seq: opened.lastSeq, strokeID: began.strokeID, line: line)
            kept.append(JournalRecord(kind: .stroke, seq: opened.lastSeq, strokeID: began.strokeID, wallTime: 0, payload: line))
            logger.notice("journal: a stroke open when penkitd stopped is reported cancelled",
                          metadata: ["stroke": "\(began.strokeID)", "seq": "\(opened.lastSeq)"])
        }
        opened.history = Array(kept.records)
        logger.info("journal opened", metadata: ["directory": "\(directory)", "strokes": "\(recovery.strokeCount)",
                                                 "restored": "\(opened.history.count)",
                                                 "last-seq": "\(opened.lastSeq)", "fsync": "\(options.fsync.rawValue)"])
        return opened
    }

    /// Appends a record on the input thread, before the line goes to any client.
    func record(_ kind: JournalFormat.Kind, seq: UInt64, strokeID: UInt64, line: [UInt8]) {
        let wall = Self.wallClock()
        let result = writer.withLock { writer -> JournalError? in
            do throws(JournalError) {
                try writer.append(kind: kind, seq: seq, strokeID: strokeID, payload: line, wallTime: wall)
                return nil
            } catch {
                writer.storeFloor(seq: seq, strokeID: strokeID)
                return error
            }
        }
        noteResult(result, seq: seq)
    }

    /// Appends a long stroke's record: its whole line, written one part's worth of pieces at a
    /// time as the stroke encodes them (`PartedStroke.forEachWholeLineGroup`), never whole in memory.
    func record(seq: UInt64, strokeID: UInt64, parted: PartedStroke) {
        let wall = Self.wallClock()
        let result = writer.withLock { writer -> JournalError? in
            do throws(JournalError) {
                try writer.append(kind: .stroke, seq: seq, strokeID: strokeID, payloadBytes: parted.wholeCount,
                                  wallTime: wall) { write in
                    // A write that failed stops the walk: the rest of the stroke is not encoded.
                    try? parted.forEachWholeLineGroup { pieces in guard write(pieces) else { throw WriteStopped() } }
                }
                return nil
            } catch {
                writer.storeFloor(seq: seq, strokeID: strokeID)
                return error
            }
        }
        noteResult(result, seq: seq)
    }

    private struct WriteStopped: Error {}

    /// The current failure, nil while records are written.
    var failing: String? { failure.withLock { $0 } }

    private func noteResult(_ error: JournalError?, seq: UInt64) {
        let (was, now): (String?, String?) = failure.withLock { current in
            let was = current
            current = error.map { "\($0)" }
            return (was, current)
        }
        if let now, was == nil {
            logger.error("journal failing: strokes are still served but not durable until it recovers",
                         metadata: ["error": "\(now)", "seq": "\(seq)"])
        } else if now == nil, was != nil {
            logger.notice("journal recovered: strokes are durable again", metadata: ["seq": "\(seq)"])
        }
    }

    func close() { writer.withLock { $0.close() } }

    static func wallClock() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return UInt64(max(0, ts.tv_sec)) * 1_000_000 + UInt64(max(0, ts.tv_nsec)) / 1_000
    }
}
