import DequeModule
import PenKit

/// Reliable lines (strokes, device changes, a recording) waiting for one client's socket, in
/// the order they go out: history strokes replayed for `since` first, then queued lines.
///
/// A long stroke, once begun, goes out a piece at a time before anything else: its lines (a
/// client that takes parts) or its whole line, one part's worth of pieces at a time (one that
/// does not). Each part is encoded when it is due (`PartedStroke`), so a slow client holds no
/// copy of the stroke's lines beyond what its pending bytes already hold. Like a pending line,
/// it no longer counts toward `overflow` once its first piece is out.
struct ReliableBacklog {
    /// Queued lines, each with the bytes it counts in `queuedBytes`.
    private var queued: Deque<(seq: UInt64, line: ReliableLine, bytes: Int)> = []
    /// History strokes replayed for `since`: the history's own arrays (no copy), so they do not
    /// count toward `overflow`.
    private var replayed: Deque<(seq: UInt64, line: ReliableLine)> = []
    private var inFlight: (seq: UInt64, stroke: PartedStroke, next: Int, whole: Bool)?
    private(set) var queuedBytes = 0

    var isEmpty: Bool { queued.isEmpty && replayed.isEmpty && inFlight == nil }
    var hasInFlight: Bool { inFlight != nil }

    mutating func enqueue(seq: UInt64, line: ReliableLine, bytes: Int) {
        queued.append((seq, line, bytes))
        queuedBytes += bytes
    }

    mutating func replay(_ entries: [(seq: UInt64, line: ReliableLine)]) {
        replayed.append(contentsOf: entries)
    }

    /// The next whole line to go out, replayed strokes first; nil when none waits.
    mutating func popNext() -> (seq: UInt64, line: ReliableLine)? {
        if let next = replayed.popFirst() { return next }
        guard let next = queued.popFirst() else { return nil }
        queuedBytes -= next.bytes
        return (next.seq, next.line)
    }

    /// Starts a long stroke: sent whole (from its parts' bytes) or in parts.
    mutating func begin(seq: UInt64, stroke: PartedStroke, whole: Bool) {
        inFlight = (seq, stroke, 0, whole)
    }

    /// Hands the stroke in flight's next piece to `push`: its next line in parts (its closing line
    /// completes it), or the next part's worth of its whole line. Returns its seq once the stroke
    /// is all out, else 0.
    mutating func pushInFlightPiece(_ push: (UnsafeRawBufferPointer) -> Void) -> UInt64 {
        guard let flight = inFlight else { return 0 }
        if flight.whole {
            flight.stroke.withWholeLineGroup(flight.next) { pieces in for piece in pieces { push(piece) } }
        } else {
            flight.stroke.withPartedLine(flight.next) { push($0) }
        }
        if flight.next + 1 < (flight.whole ? flight.stroke.wholeLineGroupCount : flight.stroke.partedLineCount) {
            inFlight?.next += 1
            return 0
        }
        inFlight = nil
        return flight.seq
    }

    /// A whole line part way out is finished at once before a control or last line goes out: the
    /// client must never read half a line. Returns its seq, or nil when no whole line was out.
    mutating func finishWholeLine(_ push: (UnsafeRawBufferPointer) -> Void) -> UInt64? {
        guard let flight = inFlight, flight.whole else { return nil }
        inFlight = nil
        for group in flight.next..<flight.stroke.wholeLineGroupCount {
            flight.stroke.withWholeLineGroup(group) { pieces in for piece in pieces { push(piece) } }
        }
        return flight.seq
    }

    /// Everything dropped (the client is closing): parts are whole lines, so the rest of a stroke
    /// in parts goes too.
    mutating func removeAll() {
        inFlight = nil
        queued.removeAll()
        replayed.removeAll()
        queuedBytes = 0
    }
}
