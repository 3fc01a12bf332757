import DequeModule
import Glibc
import Logging
import PenKit

/// One connected client and its socket, guarded by the hub's lock: the input
/// thread writes to it directly, the socket loop reads its requests and sends
/// what it could not take at once.
///
/// Backpressure: live messages (frames, updates, buttons) are dropped and counted
/// while the bytes the socket has not taken exceed `liveHigh` (until they fall
/// below half of it) or strokes are queued; strokes and device changes queue up
/// to `queueLimit` bytes, past which the client is cut off with `overflow`.
final class ClientConnection {
    let id: Int
    let fd: Int32
    let peer: PeerCredentials
    var channels: ChannelSet = []
    /// The prediction horizon this client asked for in `subscribe`.
    var prediction: PredictionRequest = .standard
    /// Whether this client asked for long strokes in parts (`subscribe`'s `strokeParts`).
    var strokeParts = false
    /// Set once the client declared itself a pressure source: its lines are readings from then on.
    var pressureSource: PressureSourceSession?
    private let epoll: Epoll
    private let logger: Logger
    private let queueLimit: Int
    private let liveHigh: Int
    /// Accepted bytes the socket has not taken yet (a partial line first).
    private var pending = PendingBytes()
    /// Reliable lines not yet handed to `pending`, each with the bytes it counts in `queuedBytes`.
    private var queued: Deque<(seq: UInt64, line: ReliableLine, bytes: Int)> = []
    /// History strokes replayed for `since`, written as the client reads them: they are the
    /// history's own arrays (no copy), so they do not count toward `overflow`.
    private var replayBacklog: Deque<(seq: UInt64, line: ReliableLine)> = []
    /// A long stroke going out: its lines (a client that takes parts) or its whole line, one part's
    /// worth of pieces at a time (one that does not), handed to the socket while the client keeps
    /// up. Each part is encoded when it is due (`PartedStroke`), so a slow client holds no copy of
    /// the stroke's lines beyond what `pending` already holds. Nothing else reliable or live goes
    /// out until it is done. Like a line in `pending`, it no longer counts toward `overflow` once
    /// its first piece is out.
    private var inFlight: (seq: UInt64, stroke: PartedStroke, next: Int, whole: Bool)?
    private var queuedBytes = 0
    private var dropped = DroppedMessage()
    private(set) var lastSentSeq: UInt64 = 0
    /// The last stroke the socket has taken whole (not merely queued in penkitd): where a client
    /// cut off at shutdown resumes.
    private(set) var writtenSeq: UInt64 = 0
    /// Bytes accepted for this client and bytes its socket took, since it connected; and where
    /// each stroke handed to the socket ends in that count.
    private var acceptedBytes = 0
    private var writtenBytes = 0
    private var strokeEnds: Deque<(end: Int, seq: UInt64)> = []
    /// Set once shutdown began: the line that ends the connection once every queued stroke is out.
    private var pendingShutdown: ShutdownMessage?
    private var shutdownDeadline: UInt64 = .max
    /// Whether live messages may go out: false past `liveHigh` pending bytes, true again below half.
    private(set) var writable = true
    private(set) var closing = false
    /// When a closing client is closed even if it has not read its last line (CLOCK_MONOTONIC µs).
    private(set) var closeDeadline: UInt64 = .max
    /// The socket failed or everything was sent after `close`: the hub removes the client.
    private(set) var finished = false
    /// Request bytes read and not yet handled.
    var input: [UInt8] = []
    /// Not reading requests while replies would only pile up, or after the client's half-close.
    private(set) var readingPaused = false
    private(set) var inputEnded = false
    private var interest: UInt32 = Epoll.input
    /// Live lines accepted during one `Hub.publish` and not written yet: a batch's lines lie back
    /// to back, so consecutive ones form one span of its bytes, sent with one syscall by
    /// `flushRun` (at the latest when `publish` ends, while the span is still valid). Only staged
    /// while nothing is pending and the span stays within `liveHigh`: then no send could have made
    /// the client unwritable part way through, so drops are decided exactly as line by line.
    private var run = UnsafeRawBufferPointer(start: nil, count: 0)

    /// A client's buffers' bounds, from the config when it connected.
    struct Limits {
        /// Bytes of strokes and device changes queued before `overflow` (`client-buffer-bytes`).
        var queueBytes: Int
        /// Unsent bytes past which live messages are dropped (`client-live-buffer-bytes`).
        var liveBytes: Int
    }

    init(id: Int, fd: Int32, peer: PeerCredentials, epoll: Epoll, limits: Limits, logger: Logger) {
        self.id = id
        self.fd = fd
        self.peer = peer
        self.epoll = epoll
        self.queueLimit = limits.queueBytes
        self.liveHigh = limits.liveBytes
        self.logger = logger
    }

    // MARK: sending

    /// Sends a control line (hello, error, subscribed, dropped) ahead of any queue.
    func sendControl(_ message: some WireMessage) {
        guard !closing else { return }
        finishWholeLine()
        var writer = JSONWriter(capacity: 256)
        writer.line(message)
        writer.bytes.withUnsafeBytes { push($0) }
    }

    /// A live line: written now, or dropped and counted if the client cannot take it.
    func deliverLive(_ line: UnsafeRawBufferPointer, channel: ChannelSet) {
        guard !closing, !channels.isDisjoint(with: channel) else { return }
        guard takesLiveNow else {
            countDrop(channel)
            return
        }
        if !dropped.isEmpty { reportDrops() }
        stage(line)
    }

    /// Adds a live line to the run, or writes it now when it cannot join.
    private func stage(_ line: UnsafeRawBufferPointer) {
        guard !finished else { return }
        if let start = run.baseAddress, start + run.count == line.baseAddress, run.count + line.count <= liveHigh {
            run = UnsafeRawBufferPointer(start: start, count: run.count + line.count)
            return
        }
        flushRun()
        if pending.isEmpty, line.count <= liveHigh {
            run = line
        } else {
            push(line)
        }
    }

    /// Brings into the cache what the next `deliverLive` reads, and the kernel's send path for
    /// this socket, sending nothing: a zero-length send on a connected stream socket queues no
    /// bytes and wakes no reader. Returns a value made of those reads, so none is optimised away.
    /// Only a client that the next frame's `deliverLive` would write to is warmed.
    func warm() -> Int {
        guard !closing, !finished, !channels.isDisjoint(with: Outbound.liveChannels), takesLiveNow else { return 0 }
        _ = Glibc.send(fd, nil, 0, Int32(MSG_DONTWAIT | MSG_NOSIGNAL))
        return Int(fd) &+ pending.count &+ run.count &+ (dropped.isEmpty ? 0 : 1) &+ Int(channels.rawValue)
    }

    /// Whether a live line would go out now rather than be dropped: nothing reliable waits ahead
    /// of it and the socket is below the live limit.
    private var takesLiveNow: Bool { queued.isEmpty && replayBacklog.isEmpty && inFlight == nil && writable }

    /// Writes the staged run; `Hub.publish` calls it before the batch's bytes go away.
    func flushRun() {
        guard !run.isEmpty else { return }
        let line = run
        run = UnsafeRawBufferPointer(start: nil, count: 0)
        push(line)
    }

    /// A reliable line (a stroke, a device change): never dropped, queued while the client is behind.
    func deliverReliable(seq: UInt64, line: ReliableLine, channel: ChannelSet) {
        guard !channels.isDisjoint(with: channel) else { return }
        enqueue(seq: seq, line: line)
    }

    /// Queues a reliable line, counted in the form this client gets it (whole or in parts).
    func enqueue(seq: UInt64, line: ReliableLine) {
        guard !closing else { return }
        let bytes = line.count(inParts: strokeParts)
        queued.append((seq, line, bytes))
        queuedBytes += bytes
        drain()
        if queuedBytes > queueLimit { overflow() }
    }

    /// Replays history strokes for `since`, ahead of anything queued after them.
    func replay(_ entries: [(seq: UInt64, line: ReliableLine)]) {
        guard !closing else { return }
        replayBacklog.append(contentsOf: entries)
        drain()
    }

    /// Hands the replay backlog, then queued reliable lines, to the socket while the client keeps up.
    private func drain() {
        while writable {
            if let flight = inFlight {
                // The next line of the stroke in parts (its closing line completes it), or the
                // next part's worth of its whole line.
                if flight.whole {
                    flight.stroke.withWholeLineGroup(flight.next) { pieces in for piece in pieces { push(piece) } }
                } else {
                    flight.stroke.withPartedLine(flight.next) { push($0) }
                }
                if flight.next + 1 < (flight.whole ? flight.stroke.wholeLineGroupCount : flight.stroke.partedLineCount) {
                    inFlight?.next += 1
                } else {
                    inFlight = nil
                    noteSent(seq: flight.seq)
                }
                continue
            }
            let next: (seq: UInt64, line: ReliableLine)
            if let replayed = replayBacklog.first {
                replayBacklog.removeFirst()
                next = replayed
            } else if let queuedLine = queued.first {
                queued.removeFirst()
                queuedBytes -= queuedLine.bytes
                next = (queuedLine.seq, queuedLine.line)
            } else {
                break
            }
            // Frames dropped before this line was sent are reported before it: a client that reads
            // up to a device's removal has every count for that device's frames.
            if !dropped.isEmpty { reportDrops() }
            switch next.line {
            case .bytes(let line):
                line.withUnsafeBytes { push($0) }
                noteSent(seq: next.seq)
            case .parted(let stroke):
                // A client that takes whole strokes gets the whole line, from the parts' bytes.
                inFlight = (next.seq, stroke, 0, !strokeParts)
            }
        }
        let idle = queued.isEmpty && replayBacklog.isEmpty && inFlight == nil
        if idle, writable, !dropped.isEmpty { reportDrops() }
        if idle, let pendingShutdown { close(lastLine: pendingShutdown, now: MonotonicClock.now()) }
    }

    /// A whole line part way out is finished at once (into `pending`, as any accepted line)
    /// before a control or last line goes out: the client must never read half a line.
    private func finishWholeLine() {
        guard let flight = inFlight, flight.whole else { return }
        inFlight = nil
        for group in flight.next..<flight.stroke.wholeLineGroupCount {
            flight.stroke.withWholeLineGroup(group) { pieces in for piece in pieces { push(piece) } }
        }
        noteSent(seq: flight.seq)
    }

    /// A stroke's last byte was handed to the socket (seq 0: not a stroke).
    private func noteSent(seq: UInt64) {
        guard seq > 0 else { return }
        lastSentSeq = seq
        strokeEnds.append((acceptedBytes, seq))
        noteWritten()
    }

    /// Moves `writtenSeq` past every stroke whose last byte the socket has taken.
    private func noteWritten() {
        while let first = strokeEnds.first, first.end <= writtenBytes {
            writtenSeq = first.seq
            strokeEnds.removeFirst()
        }
    }

    /// Writes what the socket takes now, without waiting; keeps the rest for `socketWritable`.
    private func push(_ bytes: UnsafeRawBufferPointer) {
        flushRun()  // what was staged went first
        guard !finished else { return }
        acceptedBytes += bytes.count
        var rest = bytes
        if pending.isEmpty {
            let sent = write(rest)
            if sent < 0 { return }
            writtenBytes += sent
            rest = UnsafeRawBufferPointer(rebasing: rest[sent...])
        }
        guard !rest.isEmpty else { return }
        pending.append(rest)
        if pending.count > liveHigh { writable = false }
        watch(output: true)
    }

    /// One non-blocking send; -1 (and the client finished) when the socket failed.
    private func write(_ bytes: UnsafeRawBufferPointer) -> Int {
        guard !bytes.isEmpty else { return 0 }
        while true {
            let n = Glibc.send(fd, bytes.baseAddress, bytes.count, Int32(MSG_DONTWAIT | MSG_NOSIGNAL))
            if n >= 0 { return n }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: return 0
            default:
                finished = true
                return -1
            }
        }
    }

    /// The socket can take more (EPOLLOUT): send what waits, and let live lines through
    /// again once the backlog is below half the live limit.
    func socketWritable() {
        while !pending.isEmpty, !finished {
            let sent = pending.send { write($0) }
            if sent <= 0 { break }
            writtenBytes += sent
        }
        noteWritten()
        if pending.isEmpty { watch(output: false) }
        if !writable, pending.count < liveHigh / 2 {
            writable = true
            drain()
        }
        if closing, pending.isEmpty { finished = true }
    }

    // MARK: closing

    /// Ends the connection with a last line, after what the client already has pending,
    /// but never waiting longer than `grace` on a client that does not read.
    /// A client already closing keeps its last line but gets the shorter of the two graces
    /// (a stopping server does not wait out an overflowed client's 30 s).
    func close(lastLine: some WireMessage, grace: Duration = .seconds(1), now: UInt64) {
        let deadline = now + Self.microseconds(grace)
        guard !closing else {
            closeDeadline = min(closeDeadline, deadline)
            return
        }
        // Parts are whole lines: the rest of a stroke in parts is dropped.
        finishWholeLine()
        inFlight = nil
        queued.removeAll()
        replayBacklog.removeAll()
        queuedBytes = 0
        // Every frame is received or reported: drops since the last report go before the last line.
        if !dropped.isEmpty { reportDrops() }
        var writer = JSONWriter(capacity: 256)
        writer.line(lastLine)
        writer.bytes.withUnsafeBytes { push($0) }
        closing = true
        closeDeadline = deadline
        pauseReading()
        if pending.isEmpty { finished = true }
    }

    /// Shutdown without losing a stroke silently: the strokes still queued go out as the client
    /// reads them, then `shutdown`. A client that has not taken them within `grace` is cut off
    /// with `overflow` and `lastSentSeq` = the last stroke its socket took, from which it resumes
    /// with `since` (the journal keeps the rest). An already closing client is cut at `grace`.
    func finish(_ message: ShutdownMessage, grace: Duration, now: UInt64) {
        guard !closing else {
            close(lastLine: message, grace: grace, now: now)  // only shortens its deadline
            return
        }
        pendingShutdown = message
        shutdownDeadline = now + Self.microseconds(grace)
        drain()
    }

    /// Deadlines: a closing client is closed, one that did not take its strokes at shutdown is cut off.
    func expire(now: UInt64) {
        if closing, now >= closeDeadline { finished = true }
        if !closing, pendingShutdown != nil, now >= shutdownDeadline {
            logger.warning("client did not take its strokes before shutdown; cutting it off with overflow",
                           metadata: ["client": "\(id)", "writtenSeq": "\(writtenSeq)", "lastSentSeq": "\(lastSentSeq)"])
            let overflow = ErrorMessage(code: .overflow,
                                        message: "penkitd stopped before this client read every stroke; reconnect with since",
                                        fatal: true, lastSentSeq: writtenSeq)
            close(lastLine: overflow, grace: .milliseconds(100), now: now)
        }
    }

    /// The next time `expire` has something to do.
    var nextDeadline: UInt64 {
        if finished { return .max }
        if closing { return closeDeadline }
        return pendingShutdown != nil ? shutdownDeadline : .max
    }

    static func microseconds(_ d: Duration) -> UInt64 { d.wholeMicroseconds }

    /// The peer is gone or the socket failed.
    func markFinished() { finished = true }

    private func overflow() {
        logger.warning("client fell behind; disconnecting", metadata: [
            "client": "\(id)", "queuedBytes": "\(queuedBytes)", "lastSentSeq": "\(lastSentSeq)"])
        // A stopped client reads the overflow line after its backlog, so give it time to wake up.
        let message = ErrorMessage(code: .overflow,
                                   message: "client fell more than \(queueLimit) bytes behind on strokes; reconnect with since",
                                   fatal: true, lastSentSeq: lastSentSeq)
        close(lastLine: message, grace: .seconds(30), now: MonotonicClock.now())
    }

    private func countDrop(_ channel: ChannelSet) {
        if channel.contains(.updates) { dropped.updates += 1 }
        else if channel.contains(.buttons) { dropped.buttons += 1 }
        else { dropped.frames += 1 }
    }

    private func reportDrops() {
        let report = dropped
        dropped = DroppedMessage()
        sendControl(report)
    }

    // MARK: reading

    /// Reads what the client sent; false once it will send nothing more.
    func readAvailable() -> Bool {
        var chunk = [UInt8](repeating: 0, count: 16 << 10)
        while !finished {
            let n = chunk.withUnsafeMutableBytes { Glibc.recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if n > 0 {
                input.append(contentsOf: chunk[..<n])
                if input.count > PenProtocol.maxLineBytes * 2 { return true }
                continue
            }
            if n == 0 {
                // Half-close: the client sends no more requests but may still read.
                inputEnded = true
                watch(input: false)
                return false
            }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: return true
            default:
                finished = true
                return false
            }
        }
        return false
    }

    func pauseReading() {
        readingPaused = true
        watch(input: false)
    }

    func resumeReading() {
        readingPaused = false
        if !inputEnded, !closing { watch(input: true) }
    }

    private func watch(input: Bool? = nil, output: Bool? = nil) {
        var wanted = interest
        if let input { wanted = input ? wanted | Epoll.input : wanted & ~Epoll.input }
        if let output { wanted = output ? wanted | Epoll.output : wanted & ~Epoll.output }
        guard wanted != interest, !finished else { return }
        interest = wanted
        epoll.modify(fd, events: wanted)
    }
}
