import DequeModule
import PenKit

/// The last finalized strokes, for clients that subscribe with `since`: at most `capacity`
/// strokes and `byteLimit` bytes held in memory, oldest leaving first. A stroke whose line alone
/// is over `byteLimit` (a very long stroke) is not kept: it stays in the journal, and a `since`
/// from before it gets `history_gap`, as for any stroke that has left.
///
/// A stroke held longer than `deflateAfter` is kept deflated (`DeflatedLine`), by the socket
/// loop, outside the hub's lock (`takeForDeflating`, then `put`): the input thread only appends.
/// Deflated, a stroke weighs a third of its line, so the same bytes hold three times the strokes.
/// A stroke that leaves sooner (strokes coming faster than the history holds) is never deflated.
struct StrokeHistory {
    private(set) var entries: Deque<Entry> = []
    var capacity: Int
    var byteLimit: Int
    /// What the held strokes weigh: a whole line's bytes, or a deflated one's.
    private(set) var bytes = 0
    /// The newest stroke's seq, whether or not it is still held.
    private(set) var lastSeq: UInt64 = 0
    /// The newest stroke that has left the history (0: none has).
    private(set) var evictedThrough: UInt64 = 0
    /// How many of the oldest entries are past deflating (deflated, or kept as they are).
    private var settled = 0
    /// Bytes freed by deflating since the socket loop last gave heap pages back.
    private var freedSinceTrim = 0
    /// Set when a stroke comes with none waiting to be deflated: the socket loop must learn when.
    var wakeForDeflating = false

    /// One microsecond clock for both threads (CLOCK_MONOTONIC).
    static let deflateAfter: UInt64 = 1_000_000
    static let trimAfterBytes = 1 << 20

    struct Entry {
        var seq: UInt64
        var line: Held
        var heldSince: UInt64
    }

    enum Held {
        case whole(ReliableLine)
        case deflated(DeflatedLine)

        /// What it weighs in memory.
        var heldBytes: Int {
            switch self {
            case .whole(let line): line.count
            case .deflated(let line): line.bytes.count
            }
        }
    }

    init(capacity: Int, byteLimit: Int = .max) {
        self.capacity = capacity
        self.byteLimit = byteLimit
    }

    var oldestSeq: UInt64 { entries.first?.seq ?? 0 }

    mutating func append(seq: UInt64, line: ReliableLine, now: UInt64 = MonotonicClock.now()) {
        if settled == entries.count { wakeForDeflating = true }
        entries.append(Entry(seq: seq, line: .whole(line), heldSince: now))
        bytes += line.count
        lastSeq = max(lastSeq, seq)
        trim()
    }

    /// How much more than the history's bound of whole lines the journal's recovery may keep for
    /// `restore` to choose from: deflated, a stroke's line takes between a third and a quarter of
    /// its bytes, so eight times the bound always holds what fits once deflated.
    static let restoreWholeFactor = 8

    /// Strokes recovered from the journal (oldest first, exactly as clients were first sent
    /// them), held as penkitd would hold them had it kept running: each older than
    /// `deflateAfter`, so deflated, and the newest that fit within both bounds. Restored whole,
    /// as before, the history kept a third to a quarter of the strokes it holds live.
    /// On a history that holds strokes already (never, today: penkitd restores before its
    /// first stroke), they are appended as live ones.
    mutating func restore(_ strokes: [(seq: UInt64, line: ReliableLine)]) {
        guard entries.isEmpty else {
            for stroke in strokes { append(seq: stroke.seq, line: stroke.line) }
            return
        }
        var kept: [Entry] = []
        var held = 0
        for stroke in strokes.reversed() {
            lastSeq = max(lastSeq, stroke.seq)
            // A line over the bound leaves at once live (before it could be deflated), and every
            // older stroke with it.
            guard kept.count < capacity, stroke.line.count <= byteLimit else {
                evictedThrough = max(evictedThrough, stroke.seq)
                break
            }
            var line = Held.whole(stroke.line)
            if case .bytes(let bytes) = stroke.line, let deflated = DeflatedLine(bytes) { line = .deflated(deflated) }
            guard held + line.heldBytes <= byteLimit else {
                evictedThrough = max(evictedThrough, stroke.seq)
                break
            }
            held += line.heldBytes
            kept.append(Entry(seq: stroke.seq, line: line, heldSince: 0))
        }
        for entry in kept.reversed() {
            entries.append(entry)
            bytes += entry.line.heldBytes
        }
        settled = entries.count
        trim()
    }

    /// Lets the oldest strokes go while over either bound (also after a reload lowers one).
    mutating func trim() {
        while let first = entries.first, entries.count > capacity || bytes > byteLimit {
            entries.removeFirst()
            bytes -= first.line.heldBytes
            evictedThrough = max(evictedThrough, first.seq)
            settled = max(0, settled - 1)
        }
    }

    /// Strokes with a sequence number above `since`, oldest first, whole.
    func after(_ since: UInt64) -> [(seq: UInt64, line: ReliableLine)] {
        entries.compactMap { entry in
            guard entry.seq > since else { return nil }
            switch entry.line {
            case .whole(let line): return (entry.seq, line)
            case .deflated(let line): return line.inflated().map { (entry.seq, .bytes($0)) }
            }
        }
    }

    /// The strokes after `since` that are no longer held (they left, or were not restored from
    /// the journal), nil if none is missing.
    func missing(after since: UInt64) -> ClosedRange<UInt64>? {
        let end = entries.first.map { $0.seq - 1 } ?? evictedThrough
        return since < end ? (since + 1)...end : nil
    }

    // MARK: deflating, from the socket loop

    /// When the next stroke is due to be deflated (.max: none waits).
    var nextDeflation: UInt64 {
        settled < entries.count ? entries[settled].heldSince &+ Self.deflateAfter : .max
    }

    /// The whole lines held since `deflateAfter` before `now`, oldest first, to deflate outside
    /// the lock. A stroke in parts is kept as it is (it is already over a client's line limit).
    mutating func takeForDeflating(now: UInt64, limit: Int = 64) -> [(seq: UInt64, line: [UInt8])] {
        var taken: [(seq: UInt64, line: [UInt8])] = []
        var index = settled
        while index < entries.count, taken.count < limit, entries[index].heldSince &+ Self.deflateAfter <= now {
            if case .whole(.bytes(let line)) = entries[index].line { taken.append((entries[index].seq, line)) }
            index += 1
        }
        if taken.isEmpty { settled = index }
        return taken
    }

    /// The deflated lines back in place of the whole ones (those that left meanwhile are
    /// dropped; a line that would not deflate stays whole). True when enough was freed that the
    /// caller should give heap pages back to the system.
    mutating func put(_ deflated: [(seq: UInt64, line: DeflatedLine?)]) -> Bool {
        for (seq, line) in deflated {
            guard let line, let index = index(of: seq), case .whole(.bytes) = entries[index].line else { continue }
            bytes -= entries[index].line.heldBytes - line.bytes.count
            entries[index].line = .deflated(line)
            freedSinceTrim += line.count - line.bytes.count
        }
        // what was taken is settled, deflated or not (a line zlib could not shrink stays whole)
        let through = deflated.last?.seq ?? 0
        while settled < entries.count, entries[settled].seq <= through { settled += 1 }
        guard freedSinceTrim >= Self.trimAfterBytes else { return false }
        freedSinceTrim = 0
        return true
    }

    /// Where the stroke `seq` is held (seqs rise from the oldest to the newest, with gaps where
    /// a stroke was not kept).
    private func index(of seq: UInt64) -> Int? {
        var low = 0, high = entries.count
        while low < high {
            let mid = (low + high) / 2
            if entries[mid].seq < seq { low = mid + 1 } else { high = mid }
        }
        return low < entries.count && entries[low].seq == seq ? low : nil
    }
}
