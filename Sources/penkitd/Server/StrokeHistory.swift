import DequeModule

/// The last finalized strokes, for clients that subscribe with `since`: at most `capacity`
/// strokes and `byteLimit` bytes of their lines, oldest leaving first. A stroke whose line alone
/// is over `byteLimit` (a very long stroke) is not kept: it stays in the journal, and a `since`
/// from before it gets `history_gap`, as for any stroke that has left.
struct StrokeHistory {
    private(set) var entries: Deque<(seq: UInt64, line: ReliableLine)> = []
    var capacity: Int
    var byteLimit: Int
    private var bytes = 0
    /// The newest stroke's seq, whether or not it is still held.
    private(set) var lastSeq: UInt64 = 0
    /// The newest stroke that has left the history (0: none has).
    private(set) var evictedThrough: UInt64 = 0

    init(capacity: Int, byteLimit: Int = .max) {
        self.capacity = capacity
        self.byteLimit = byteLimit
    }

    var oldestSeq: UInt64 { entries.first?.seq ?? 0 }

    mutating func append(seq: UInt64, line: ReliableLine) {
        entries.append((seq, line))
        bytes += line.count
        lastSeq = max(lastSeq, seq)
        trim()
    }

    /// Lets the oldest strokes go while over either bound (also after a reload lowers one).
    mutating func trim() {
        while let first = entries.first, entries.count > capacity || bytes > byteLimit {
            entries.removeFirst()
            bytes -= first.line.count
            evictedThrough = max(evictedThrough, first.seq)
        }
    }

    /// Strokes with a sequence number above `since`, oldest first.
    func after(_ since: UInt64) -> [(seq: UInt64, line: ReliableLine)] {
        entries.filter { $0.seq > since }
    }

    /// The strokes after `since` that are no longer held (they left, or were not restored from
    /// the journal), nil if none is missing.
    func missing(after since: UInt64) -> ClosedRange<UInt64>? {
        let end = entries.first.map { $0.seq - 1 } ?? evictedThrough
        return since < end ? (since + 1)...end : nil
    }
}
