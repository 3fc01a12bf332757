import DequeModule

/// The last finalized strokes, for clients that subscribe with `since`.
struct StrokeHistory {
    private(set) var entries: Deque<(seq: UInt64, line: [UInt8])> = []
    var capacity: Int

    init(capacity: Int) { self.capacity = capacity }

    var lastSeq: UInt64 { entries.last?.seq ?? 0 }
    var oldestSeq: UInt64 { entries.first?.seq ?? 0 }

    mutating func append(seq: UInt64, line: [UInt8]) {
        entries.append((seq, line))
        while entries.count > capacity { entries.removeFirst() }
    }

    /// Strokes with a sequence number above `since`, oldest first.
    func after(_ since: UInt64) -> [(seq: UInt64, line: [UInt8])] {
        entries.filter { $0.seq > since }
    }

    /// Whether strokes after `since` have already fallen out of the history.
    func hasGap(after since: UInt64) -> Bool {
        guard let first = entries.first else { return false }
        return since + 1 < first.seq
    }
}
