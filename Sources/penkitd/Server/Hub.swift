import Glibc
import Logging
import NIOCore
import PenKit
import Synchronization

/// The clients, the stroke history and the device list, all confined to the
/// server's one event loop. The input thread reaches it only through
/// `publish`, which enqueues a task and returns: it never waits on a client.
final class Hub: @unchecked Sendable {
    let eventLoop: EventLoop
    private var clients: [Int: ClientSession] = [:]
    private var nextClientID = 1
    private var history: StrokeHistory
    private var devices: [Int: DeviceInfo] = [:]
    private var settings: [String: String]
    private var queueLimit: Int
    /// Connections served at once (max-clients).
    private(set) var maxClients: Int
    private let logger: Logger
    private let probe: LatencyProbe?
    private(set) var stopping = false
    /// The horizons clients asked for, shared with the input thread's pipeline.
    let predictionVariants = PredictionVariants()
    /// Batches handed to the event loop and not yet delivered. Live input is
    /// paced by the hardware; an unpaced replay waits on this instead of
    /// growing the loop's task queue without bound.
    private let inFlight = Atomic<Int>(0)
    static let maxInFlight = 64

    init(eventLoop: EventLoop, config: DaemonConfig, settings: [String: String], logger: Logger,
         probe: LatencyProbe? = nil) {
        self.probe = probe
        self.eventLoop = eventLoop
        self.history = StrokeHistory(capacity: config.historyStrokes)
        self.queueLimit = config.clientBufferBytes
        self.maxClients = config.maxClients
        self.settings = settings
        self.logger = logger
    }

    // MARK: from the input thread

    /// Hands a batch of messages to the event loop. Never blocks.
    func publish(_ batch: [Outbound]) {
        guard !batch.isEmpty else { return }
        if let probe { Self.record(batch, .handedToEventLoop, in: probe) }
        inFlight.add(1, ordering: .relaxed)
        eventLoop.execute {
            self.deliver(batch)
            self.inFlight.subtract(1, ordering: .relaxed)
        }
    }

    /// For sources that may go faster than clients (unpaced replays): waits until the loop catches up.
    func waitForCapacity() {
        while inFlight.load(ordering: .relaxed) > Self.maxInFlight { usleep(200) }
    }

    // MARK: on the event loop

    func apply(config: DaemonConfig) {
        eventLoop.assertInEventLoop()
        queueLimit = config.clientBufferBytes
        maxClients = config.maxClients
        history.capacity = config.historyStrokes
    }

    func addClient(channel: Channel, peer: PeerCredentials) -> ClientSession {
        eventLoop.assertInEventLoop()
        let session = ClientSession(id: nextClientID, channel: channel, peer: peer, queueLimit: queueLimit, logger: logger)
        nextClientID += 1
        clients[session.id] = session
        let hello = HelloMessage(devices: devices.values.sorted { $0.id < $1.id }, settings: settings,
                                 lastSeq: history.lastSeq, oldestSeq: history.oldestSeq)
        session.sendControl(hello)
        session.flushIfNeeded()
        logger.info("client connected", metadata: ["client": "\(session.id)", "pid": "\(peer.pid)", "uid": "\(peer.uid)"])
        return session
    }

    func removeClient(_ session: ClientSession) {
        eventLoop.assertInEventLoop()
        if clients.removeValue(forKey: session.id) != nil {
            logger.info("client disconnected", metadata: ["client": "\(session.id)"])
            predictionVariants.update(clients.values.map(\.prediction))
        }
    }

    var clientCount: Int { clients.count }
    var subscribedCount: Int { clients.values.filter { !$0.channels.isEmpty && !$0.closing }.count }

    func subscribe(_ session: ClientSession, _ request: SubscribeRequest) {
        eventLoop.assertInEventLoop()
        session.channels = request.channels
        session.prediction = request.predict ?? .standard
        predictionVariants.update(clients.values.map(\.prediction))
        var replay: [(seq: UInt64, line: ByteBuffer)] = []
        if let since = request.since, request.channels.contains(.strokes) {
            if history.hasGap(after: since) {
                session.sendControl(ErrorMessage(
                    code: .historyGap,
                    message: "strokes \(since + 1)...\(history.oldestSeq - 1) are no longer in the history; replaying from \(history.oldestSeq)"))
            }
            replay = history.after(since)
        }
        session.sendControl(SubscribedMessage(channels: request.channels, replaying: replay.count))
        session.replay(replay)
        session.flushIfNeeded()
    }

    func deviceAdded(_ device: DeviceInfo) {
        eventLoop.execute {
            self.devices[device.id] = device
            self.deliver([Outbound(.devices, DeviceChangeMessage(change: .added, device: device))])
        }
    }

    func deviceRemoved(_ device: DeviceInfo) {
        eventLoop.execute {
            self.devices[device.id] = nil
            self.deliver([Outbound(.devices, DeviceChangeMessage(change: .removed, device: device))])
        }
    }

    private func deliver(_ batch: [Outbound]) {
        for message in batch {
            let buffer = ByteBuffer(bytes: message.line)
            if message.seq > 0 { history.append(seq: message.seq, line: buffer) }
            if message.alternates.isEmpty {
                for session in clients.values { session.deliver(message, buffer: buffer) }
            } else {
                // Each horizon's encoding goes into one buffer, shared by its clients.
                let buffers = message.alternates.map { ByteBuffer(bytes: $0.line) }
                for session in clients.values {
                    session.deliver(message, buffer: session.line(of: message, buffers: buffers, default: buffer))
                }
            }
        }
        for session in clients.values { session.flushIfNeeded() }
        if let probe { Self.record(batch, .writtenToSockets, in: probe) }
    }

    private static func record(_ batch: [Outbound], _ stage: LatencyProbe.Stage, in probe: LatencyProbe) {
        let now = MonotonicClock.now()
        for message in batch where message.sourceTime > 0 { probe.record(stage, sourceTime: message.sourceTime, now: now) }
    }

    /// How long a stopping penkitd waits for a client to take the strokes queued for it
    /// (docs/daemon.md); past it the client is cut off with `overflow`.
    static let shutdownGrace: TimeAmount = .seconds(1)

    /// Tells every client the server is stopping (after the strokes queued for it) and closes
    /// them; the future completes when every connection is closed, within about the grace.
    func shutdown(reason: String) -> EventLoopFuture<Void> {
        eventLoop.flatSubmit {
            self.stopping = true
            let closes = self.clients.values.map { session -> EventLoopFuture<Void> in
                session.finish(ShutdownMessage(reason: reason), grace: Self.shutdownGrace)
                return session.channel.closeFuture
            }
            return EventLoopFuture.andAllComplete(closes, on: self.eventLoop)
        }
    }
}
