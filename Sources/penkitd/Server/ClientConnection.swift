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
    var fd: Int32 { socket.fd }
    let peer: PeerCredentials
    var channels: ChannelSet = []
    /// The prediction horizon this client asked for in `subscribe`.
    var prediction: PredictionRequest = .standard
    /// Whether this client asked for long strokes in parts (`subscribe`'s `strokeParts`).
    var strokeParts = false
    /// Set once the client declared itself a pressure source: its lines are readings from then on.
    var pressureSource: PressureSourceSession?
    private let logger: Logger
    private let queueLimit: Int
    private let liveHigh: Int
    private var socket: ClientSocket
    /// Reliable lines not yet handed to `pending`, handed over while the client keeps up.
    private var backlog = ReliableBacklog()
    private var dropped = DroppedMessage()
    private var progress = StrokeProgress()
    private var schedule = CloseSchedule()
    /// Whether live messages may go out: false past `liveHigh` pending bytes, true again below half.
    private(set) var writable = true
    var closing: Bool { schedule.closing }
    /// The socket failed or everything was sent after `close`: the hub removes the client.
    var finished: Bool { done || socket.failed }
    private var done = false
    /// What the client sent: its requests, for the control plane (`RequestRouter`), which takes
    /// the lines it handled.
    var requests = RequestInput()
    /// Live lines accepted during one `Hub.publish` and not written yet: a batch's lines lie back
    /// to back, so consecutive ones form one span of its bytes, sent with one syscall by
    /// `flushRun` (at the latest when `publish` ends, while the span is still valid). Only staged
    /// while nothing is pending and the span stays within `liveHigh`: then no send could have made
    /// the client unwritable part way through, so drops are decided exactly as line by line.
    private var run = UnsafeRawBufferPointer(start: nil, count: 0)

    init(id: Int, fd: Int32, peer: PeerCredentials, epoll: Epoll, limits: ClientLimits, logger: Logger) {
        self.id = id
        socket = ClientSocket(fd: fd, epoll: epoll)
        self.peer = peer
        self.queueLimit = limits.queueBytes
        self.liveHigh = limits.liveBytes
        self.logger = logger
    }

    // MARK: sending

    /// Sends a control line (hello, error, subscribed, dropped) ahead of any queue.
    func sendControl(_ message: some WireMessage) {
        guard !closing else { return }
        finishWholeLine()
        pushLine(message)
    }

    private func pushLine(_ message: some WireMessage) {
        var writer = JSONWriter(capacity: 256)
        writer.line(message)
        writer.bytes.withUnsafeBytes { push($0) }
    }

    /// A live line: written now, or dropped and counted if the client cannot take it.
    func deliverLive(_ line: UnsafeRawBufferPointer, channel: ChannelSet) {
        guard !closing, !channels.isDisjoint(with: channel) else { return }
        guard takesLiveNow else {
            dropped.count(channel)
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
        if socket.pending.isEmpty, line.count <= liveHigh {
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
        return Int(fd) &+ socket.pending.count &+ run.count &+ (dropped.isEmpty ? 0 : 1) &+ Int(channels.rawValue)
    }

    /// Whether a live line would go out now rather than be dropped: nothing reliable waits ahead
    /// of it and the socket is below the live limit.
    private var takesLiveNow: Bool { backlog.isEmpty && writable }

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
    private func enqueue(seq: UInt64, line: ReliableLine) {
        guard !closing else { return }
        backlog.enqueue(seq: seq, line: line, bytes: line.count(inParts: strokeParts))
        drain()
        if backlog.queuedBytes > queueLimit { overflow() }
    }

    /// Replays history strokes for `since`, ahead of anything queued after them.
    func replay(_ entries: [(seq: UInt64, line: ReliableLine)]) {
        guard !closing else { return }
        backlog.replay(entries)
        drain()
    }

    /// Hands the replay backlog, then queued reliable lines, to the socket while the client keeps up.
    private func drain() {
        while writable {
            if backlog.hasInFlight {
                progress.sent(seq: backlog.pushInFlightPiece(push))
                continue
            }
            guard let next = backlog.popNext() else { break }
            // Frames dropped before this line was sent are reported before it: a client that reads
            // up to a device's removal has every count for that device's frames.
            if !dropped.isEmpty { reportDrops() }
            switch next.line {
            case .bytes(let line):
                line.withUnsafeBytes { push($0) }
                progress.sent(seq: next.seq)
            case .parted(let stroke):
                // A client that takes whole strokes gets the whole line, from the parts' bytes.
                backlog.begin(seq: next.seq, stroke: stroke, whole: !strokeParts)
            }
        }
        if backlog.isEmpty, writable, !dropped.isEmpty { reportDrops() }
        if backlog.isEmpty, var shutdown = schedule.pendingShutdown {
            // Every stroke queued for this client went out before this line: it tells which was last.
            shutdown.lastSentSeq = progress.lastSentSeq
            close(lastLine: shutdown, now: MonotonicClock.now())
        }
    }

    /// A whole line part way out is finished at once (into `pending`, as any accepted line)
    /// before a control or last line goes out: the client must never read half a line.
    private func finishWholeLine() {
        if let seq = backlog.finishWholeLine(push) { progress.sent(seq: seq) }
    }

    /// Writes what the socket takes now, without waiting; keeps the rest for `socketWritable`.
    private func push(_ bytes: UnsafeRawBufferPointer) {
        flushRun()  // what was staged went first
        guard !finished else { return }
        progress.accepted(bytes.count)
        progress.written(socket.send(bytes))
        if socket.pending.count > liveHigh { writable = false }
    }

    /// The socket can take more (EPOLLOUT): send what waits, and let live lines through
    /// again once the backlog is below half the live limit.
    func socketWritable() {
        if !finished { progress.written(socket.sendPending()) }
        progress.advanceWritten()
        if !writable, socket.pending.count < liveHigh / 2 {
            writable = true
            drain()
        }
        if closing, socket.pending.isEmpty { done = true }
    }

    // MARK: closing

    /// Ends the connection with a last line, after what the client already has pending,
    /// but never waiting longer than `grace` on a client that does not read.
    /// A client already closing keeps its last line but gets the shorter of the two graces
    /// (a stopping server does not wait out an overflowed client's 30 s).
    func close(lastLine: some WireMessage, grace: Duration = .seconds(1), now: UInt64) {
        let deadline = now + grace.wholeMicroseconds
        guard !closing else { return schedule.shorten(to: deadline) }
        finishWholeLine()
        backlog.removeAll()
        // Every frame is received or reported: drops since the last report go before the last line.
        if !dropped.isEmpty { reportDrops() }
        pushLine(lastLine)
        schedule.close(by: deadline)
        pauseReading()
        if socket.pending.isEmpty { done = true }
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
        schedule.shutdown(message, by: now + grace.wholeMicroseconds)
        drain()
    }

    /// Deadlines: a closing client is closed, one that did not take its strokes at shutdown is cut off.
    func expire(now: UInt64) {
        switch schedule.due(at: now) {
        case .nothing: break
        case .close: done = true
        case .cutOff:
            logger.warning("client did not take its strokes before shutdown; cutting it off with overflow", metadata: [
                "client": "\(id)", "writtenSeq": "\(progress.writtenSeq)", "lastSentSeq": "\(progress.lastSentSeq)"])
            let overflow = ErrorMessage(code: .overflow,
                                        message: "penkitd stopped before this client read every stroke; reconnect with since",
                                        fatal: true, lastSentSeq: progress.writtenSeq)
            close(lastLine: overflow, grace: .milliseconds(100), now: now)
        }
    }

    /// The next time `expire` has something to do.
    var nextDeadline: UInt64 { finished ? .max : schedule.nextDeadline }

    /// The peer is gone or the socket failed.
    func markFinished() { done = true }

    private func overflow() {
        logger.warning("client fell behind; disconnecting", metadata: [
            "client": "\(id)", "queuedBytes": "\(backlog.queuedBytes)", "lastSentSeq": "\(progress.lastSentSeq)"])
        // A stopped client reads the overflow line after its backlog, so give it time to wake up.
        let message = ErrorMessage(code: .overflow,
                                   message: "client fell more than \(queueLimit) bytes behind on strokes; reconnect with since",
                                   fatal: true, lastSentSeq: progress.lastSentSeq)
        close(lastLine: message, grace: .seconds(30), now: MonotonicClock.now())
    }

    private func reportDrops() {
        let report = dropped
        dropped = DroppedMessage()
        sendControl(report)
    }

    // MARK: reading

    /// Reads what the client sent into `requests`; false once it will send nothing more.
    func readAvailable() -> Bool {
        guard !finished else { return false }
        switch requests.read(from: fd) {
        case .open:
            return true
        case .ended:
            watch(input: false)
            return false
        case .failed:
            done = true
            return false
        }
    }

    /// Not reading requests while replies would only pile up.
    func pauseReading() {
        requests.pause()
        watch(input: false)
    }

    func resumeReading() {
        requests.resume()
        if !requests.ended, !closing { watch(input: true) }
    }

    private func watch(input: Bool? = nil, output: Bool? = nil) {
        guard !finished else { return }
        socket.watch(input: input, output: output)
    }
}
