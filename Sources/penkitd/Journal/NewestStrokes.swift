import DequeModule

/// The stroke records a start keeps for the history: the newest, at most `count` of them and
/// `bytes` of their lines, oldest leaving first, as `StrokeHistory` trims (a record's payload is
/// its line). A full journal holds 64 MiB of strokes and the history keeps 2 MiB: reading them
/// all and letting the history drop the rest left the rest's pages in glibc's heap, resident
/// for the daemon's life (82 MiB instead of 28 after a restart on a full journal, docs/daemon.md).
struct NewestStrokes: Sendable {
    let count: Int
    let bytes: Int
    private(set) var records: Deque<JournalRecord> = []
    private var heldBytes = 0

    init(count: Int = .max, bytes: Int = .max) {
        self.count = count
        self.bytes = bytes
    }

    mutating func append(_ record: JournalRecord) {
        records.append(record)
        heldBytes += record.payload.count
        while let first = records.first, records.count > count || heldBytes > bytes {
            records.removeFirst()
            heldBytes -= first.payload.count
        }
    }
}
