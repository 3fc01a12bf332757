import DequeModule

/// How far a client's strokes got: the last one handed to its socket, and the last one the
/// socket has taken whole (not merely queued in penkitd), where a client cut off at shutdown
/// resumes with `since`.
struct StrokeProgress {
    private(set) var lastSentSeq: UInt64 = 0
    private(set) var writtenSeq: UInt64 = 0
    /// Bytes accepted for this client and bytes its socket took, since it connected; and where
    /// each stroke handed to the socket ends in that count.
    private var acceptedBytes = 0
    private var writtenBytes = 0
    private var strokeEnds: Deque<(end: Int, seq: UInt64)> = []

    /// Bytes accepted for the socket, sent now or pending.
    mutating func accepted(_ count: Int) { acceptedBytes += count }

    /// Bytes the socket took.
    mutating func written(_ count: Int) { writtenBytes += count }

    /// A stroke's last byte was handed to the socket (seq 0: not a stroke).
    mutating func sent(seq: UInt64) {
        guard seq > 0 else { return }
        lastSentSeq = seq
        strokeEnds.append((acceptedBytes, seq))
        advanceWritten()
    }

    /// Moves `writtenSeq` past every stroke whose last byte the socket has taken.
    mutating func advanceWritten() {
        while let first = strokeEnds.first, first.end <= writtenBytes {
            writtenSeq = first.seq
            strokeEnds.removeFirst()
        }
    }
}
