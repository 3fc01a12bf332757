import DequeModule
import Logging
import NIOCore
import PenKit

/// One connected client, confined to the server's event loop. It applies the
/// backpressure rules: live messages are dropped (and counted) while NIO's
/// buffer for the client is above its high-water mark; strokes and device
/// changes queue up to a byte limit, past which the client is cut off with `overflow`.
final class ClientSession {
    let id: Int
    let channel: Channel
    let peer: PeerCredentials
    var channels: ChannelSet = []
    /// The prediction horizon this client asked for in `subscribe`.
    var prediction: PredictionRequest = .standard
    private var queued: Deque<(seq: UInt64, line: ByteBuffer)> = []
    /// History strokes replayed for `since`, written as the client reads them: they are the
    /// history's own buffers (no copy), so they do not count toward `overflow`.
    private var replayBacklog: Deque<(seq: UInt64, line: ByteBuffer)> = []
    private var queuedBytes = 0
    private let queueLimit: Int
    private var dropped = DroppedMessage()
    private(set) var lastSentSeq: UInt64 = 0
    /// The last stroke NIO has written to the socket (not merely queued): where a client cut
    /// off at shutdown resumes, since NIO's unwritten buffers are lost when the channel closes.
    private(set) var writtenSeq: UInt64 = 0
    /// Set once shutdown began: the line that ends the connection once every queued stroke is out.
    private var pendingShutdown: ShutdownMessage?
    private var needsFlush = false
    private(set) var closing = false
    private let logger: Logger

    init(id: Int, channel: Channel, peer: PeerCredentials, queueLimit: Int, logger: Logger) {
        self.id = id
        self.channel = channel
        self.peer = peer
        self.queueLimit = queueLimit
        self.logger = logger
    }

    /// Sends a control line (hello, error, subscribed) ahead of any queue.
    func sendControl(_ message: some WireMessage) {
        guard !closing else { return }
        channel.write(Self.lineBuffer(message, channel: channel), promise: nil)
        needsFlush = true
    }

    /// One message's line in a buffer of the channel's allocator.
    static func lineBuffer(_ message: some WireMessage, channel: Channel) -> ByteBuffer {
        var writer = JSONWriter(capacity: 256)
        writer.line(message)
        var buffer = channel.allocator.buffer(capacity: writer.count)
        buffer.writeBytes(writer.bytes)
        return buffer
    }

    /// The frame's line for this client's horizon: its own encoding if the input thread made
    /// one, else the default (a request newer than the frame falls back to the default once).
    func line(of message: Outbound, buffers: [ByteBuffer], default buffer: ByteBuffer) -> ByteBuffer {
        guard prediction != .standard else { return buffer }
        for (i, alternate) in message.alternates.enumerated() where alternate.request == prediction { return buffers[i] }
        return buffer
    }

    func deliver(_ message: Outbound, buffer: ByteBuffer) {
        guard !closing, !channels.isDisjoint(with: message.channel) else { return }
        if message.isLive {
            guard queued.isEmpty, replayBacklog.isEmpty, channel.isWritable else {
                countDrop(message.channel)
                return
            }
            if !dropped.isEmpty { reportDrops() }
            channel.write(buffer, promise: nil)
            needsFlush = true
        } else {
            enqueue(seq: message.seq, line: buffer)
        }
    }

    /// Queues a reliable line (a stroke, a device change, a replayed history stroke).
    func enqueue(seq: UInt64, line: ByteBuffer) {
        guard !closing else { return }
        queued.append((seq, line))
        queuedBytes += line.readableBytes
        drain()
        if queuedBytes > queueLimit { overflow() }
    }

    /// Replays history strokes for `since`, ahead of anything queued after them.
    func replay(_ entries: [(seq: UInt64, line: ByteBuffer)]) {
        guard !closing else { return }
        replayBacklog.append(contentsOf: entries)
        drain()
    }

    /// Writes the replay backlog, then queued reliable lines, while NIO will take them.
    func drain() {
        while channel.isWritable, let next = replayBacklog.first ?? queued.first {
            if replayBacklog.isEmpty {
                queued.removeFirst()
                queuedBytes -= next.line.readableBytes
            } else {
                replayBacklog.removeFirst()
            }
            if next.seq > 0 {
                lastSentSeq = next.seq
                // Strokes are rare (a few a second): one promise each is cheap.
                let seq = next.seq
                let written = channel.eventLoop.makePromise(of: Void.self)
                written.futureResult.whenSuccess { [weak self] in
                    if let self, seq > self.writtenSeq { self.writtenSeq = seq }
                }
                channel.write(next.line, promise: written)
            } else {
                channel.write(next.line, promise: nil)
            }
            needsFlush = true
        }
        if queued.isEmpty, replayBacklog.isEmpty, channel.isWritable, !dropped.isEmpty { reportDrops() }
        if queued.isEmpty, replayBacklog.isEmpty, let pendingShutdown { close(lastLine: pendingShutdown, grace: .seconds(1)) }
    }

    /// Shutdown without losing a stroke silently: the strokes still queued go out as the client
    /// reads them, then `shutdown`. A client that has not taken them within `grace` is cut off
    /// with `overflow` and `lastSentSeq` = the last stroke written to its socket, from which it
    /// resumes with `since` (the journal keeps the rest). An already overflowed client is cut at `grace`.
    func finish(_ message: ShutdownMessage, grace: TimeAmount) {
        let channel = self.channel
        guard !closing else {
            channel.eventLoop.scheduleTask(in: grace) { channel.close(promise: nil) }
            return
        }
        pendingShutdown = message
        drain()
        flushIfNeeded()
        channel.eventLoop.scheduleTask(in: grace) { [weak self] in
            guard let self, !self.closing else { return }
            self.logger.warning("client did not take its strokes before shutdown; cutting it off with overflow",
                                metadata: ["client": "\(self.id)", "writtenSeq": "\(self.writtenSeq)", "lastSentSeq": "\(self.lastSentSeq)"])
            let overflow = ErrorMessage(code: .overflow,
                                        message: "penkitd stopped before this client read every stroke; reconnect with since",
                                        fatal: true, lastSentSeq: self.writtenSeq)
            self.close(lastLine: overflow, grace: .milliseconds(100))
        }
    }

    func flushIfNeeded() {
        if needsFlush {
            needsFlush = false
            channel.flush()
        }
    }

    /// Ends the connection with a last line, after what NIO already holds for the
    /// client, but never waiting longer than `grace` on a client that does not read.
    func close(lastLine: some WireMessage, grace: TimeAmount = .seconds(1)) {
        guard !closing else { return }
        queued.removeAll()
        replayBacklog.removeAll()
        queuedBytes = 0
        let buffer = Self.lineBuffer(lastLine, channel: channel)
        closing = true
        let channel = self.channel
        channel.writeAndFlush(buffer).whenComplete { _ in channel.close(promise: nil) }
        channel.eventLoop.scheduleTask(in: grace) { channel.close(promise: nil) }
    }

    private func overflow() {
        logger.warning("client fell behind; disconnecting", metadata: [
            "client": "\(id)", "queuedBytes": "\(queuedBytes)", "lastSentSeq": "\(lastSentSeq)"])
        // A stopped client reads the overflow line after its backlog, so give it time to wake up.
        let message = ErrorMessage(code: .overflow,
                                   message: "client fell more than \(queueLimit) bytes behind on strokes; reconnect with since",
                                   fatal: true, lastSentSeq: lastSentSeq)
        close(lastLine: message, grace: .seconds(30))
    }

    private func countDrop(_ channel: ChannelSet) {
        if channel.contains(.updates) { dropped.updates += 1 }
        else if channel.contains(.buttons) { dropped.buttons += 1 }
        else { dropped.frames += 1 }
    }

    private func reportDrops() {
        sendControl(dropped)
        dropped = DroppedMessage()
    }
}
