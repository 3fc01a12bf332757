import CLinuxCalls
import Dispatch
import Glibc
import Logging
import PenKit
import Synchronization

/// The clients, the stroke history and the device list, behind one lock.
///
/// The input thread's `publish` writes each line straight to every client socket
/// that can take it (non-blocking): one thread wake-up between a pen event and the
/// clients, and each line encoded once. Only what a slow client cannot take now
/// waits in that client's buffers, for the socket loop to send on EPOLLOUT. The
/// socket loop accepts clients, reads their requests and sends those leftovers,
/// under the same lock, so no client state is ever touched by two threads at once.
final class Hub: Sendable {
    private let state: Mutex<HubState>
    let logger: Logger
    private let probe: LatencyProbe?
    let epoll: Epoll
    /// The horizons clients asked for, shared with the input thread's pipeline.
    let predictionVariants = PredictionVariants()
    /// Where pressure sources' readings go to the input thread; nil while penkitd cannot take
    /// sources (an unpaced replay, whose times are not on a real clock).
    let pressureInbox: PressureInbox?
    /// Where `warmSockets` leaves what it read, so the reads stay in the program.
    private let warmth = Atomic<Int>(0)
    /// Signalled at every subscription, for `waitForSubscribers`.
    private let subscribed = DispatchSemaphore(value: 0)
    /// The flight recorder `record` requests read; nil when it is off.
    let recorder: FlightRecorder?
    /// What each tablet's pen is doing, which the input thread keeps for `status` requests.
    let activity: DeviceActivity

    init(epoll: Epoll, config: DaemonConfig, settings: [String: String], policy: PeerPolicy, logger: Logger,
         probe: LatencyProbe? = nil, sourcePolicy: PeerPolicy = .defaultPressureSources, pressureInbox: PressureInbox? = nil,
         recorder: FlightRecorder? = nil, recordPolicy: PeerPolicy = .defaultPressureSources, paced: Bool = true) {
        self.epoll = epoll
        activity = DeviceActivity(paced: paced)
        self.recorder = recorder
        self.pressureInbox = pressureInbox
        self.logger = logger
        self.probe = probe
        state = Mutex(HubState(history: StrokeHistory(capacity: config.historyStrokes, byteLimit: config.historyBytes), settings: settings,
                               policy: policy, sourcePolicy: sourcePolicy, recordPolicy: recordPolicy, queueLimit: config.clientBufferBytes,
                               liveBufferBytes: config.clientLiveBufferBytes, maxClients: config.maxClients,
                               strokePartPoints: config.strokePartPoints, config: config))
    }

    // MARK: from the input thread

    /// Writes a batch to every subscribed client. Never waits on a client.
    func publish(_ batch: OutboundBatch) {
        guard !batch.isEmpty else { return }
        if let probe { Self.record(batch, .encoded, in: probe) }
        state.withLock { state in
            batch.bytes.withUnsafeBytes { bytes in
                for message in batch.messages {
                    let line = UnsafeRawBufferPointer(rebasing: bytes[message.range])
                    if message.isLive {
                        if message.alternates.isEmpty {
                            for client in state.clients.values { client.deliverLive(line, channel: message.channel) }
                        } else {
                            for client in state.clients.values {
                                let own = UnsafeRawBufferPointer(rebasing: bytes[message.range(for: client.prediction)])
                                client.deliverLive(own, channel: message.channel)
                            }
                        }
                    } else if let parted = message.parted {
                        // A long stroke, in parts: shared by the history and every client, each
                        // of which gets it in parts or whole as it asked.
                        let kept = ReliableLine.parted(parted)
                        state.history.append(seq: message.seq, line: kept)
                        for client in state.clients.values { client.deliverReliable(seq: message.seq, line: kept, channel: message.channel) }
                    } else {
                        // One copy, shared by the history and every client that must queue it.
                        let kept = Array(line)
                        if message.seq > 0 { state.history.append(seq: message.seq, line: .bytes(kept)) }
                        if message.sourceStateOf > 0 { state.sourceStates[message.sourceStateOf] = kept }
                        for client in state.clients.values { client.deliverReliable(seq: message.seq, line: .bytes(kept), channel: message.channel) }
                    }
                }
                // Each client's run of lines goes out in one send, while the batch's bytes are valid.
                for client in state.clients.values { client.flushRun() }
            }
            reapFinished(&state)
        }
        if let probe { Self.record(batch, .writtenToSockets, in: probe) }
    }

    /// Warms the write path before a pen report (`FrameWarmer` warms the frame path): the client
    /// table, and for each client the next frame would be written to, its state and its socket's
    /// send path in the kernel. No client receives anything.
    func warmSockets() {
        let touched = state.withLock { state in
            state.clients.values.reduce(0) { $0 &+ $1.warm() }
        }
        warmth.store(touched, ordering: .relaxed)
    }

    /// Strokes recovered from the journal, exactly as clients were first sent them, into the
    /// history before any client can ask for them with `since`.
    func restoreHistory(_ strokes: [(seq: UInt64, line: ReliableLine)]) {
        state.withLock { state in
            for stroke in strokes { state.history.append(seq: stroke.seq, line: stroke.line) }
        }
    }

    func deviceAdded(_ device: DeviceInfo) {
        deviceChanged(DeviceChangeMessage(change: .added, device: device))
    }

    func deviceRemoved(_ device: DeviceInfo) {
        deviceChanged(DeviceChangeMessage(change: .removed, device: device))
    }

    /// A device's description changed (a reload changed its mapping).
    func deviceUpdated(_ device: DeviceInfo) {
        deviceChanged(DeviceChangeMessage(change: .changed, device: device))
    }

    /// The devices `hello` lists now.
    var currentDevices: [DeviceInfo] { state.withLock { $0.devicesByID } }

    private func deviceChanged(_ change: DeviceChangeMessage) {
        let line = change.jsonBytes() + [UInt8(ascii: "\n")]
        state.withLock { state in
            state.devices[change.device.id] = change.change == .removed ? nil : change.device
            if change.change == .removed { state.sourceStates[change.device.id] = nil }
            for client in state.clients.values { client.deliverReliable(seq: 0, line: .bytes(line), channel: .devices) }
            reapFinished(&state)
        }
    }

    private static func record(_ batch: OutboundBatch, _ stage: LatencyProbe.Stage, in probe: LatencyProbe) {
        let now = MonotonicClock.now()
        for message in batch.messages where message.sourceTime > 0 { probe.record(stage, sourceTime: message.sourceTime, now: now) }
    }

    // MARK: from the socket loop

    /// A new connection: checks the peer, then greets it with `hello`.
    func accept(_ fd: Int32) {
        state.withLock { state in
            guard let peer = PeerCredentials(socket: fd) else {
                refuse(fd, code: .refused, reason: "cannot read peer credentials")
                return
            }
            guard state.policy.allows(peer) else {
                logger.warning("refused peer", metadata: ["pid": "\(peer.pid)", "uid": "\(peer.uid)", "gid": "\(peer.gid)"])
                refuse(fd, code: .refused, reason: "uid \(peer.uid) is not allowed to use penkitd")
                return
            }
            guard !state.stopping else {
                Glibc.close(fd)
                return
            }
            guard state.clients.count < state.maxClients else {
                logger.warning("too many clients; closing a new connection",
                               metadata: ["pid": "\(peer.pid)", "uid": "\(peer.uid)", "max-clients": "\(state.maxClients)"])
                refuse(fd, code: .tooManyClients, reason: "penkitd already serves \(state.maxClients) clients (max-clients)")
                return
            }
            do {
                try epoll.add(fd, events: Epoll.input)
            } catch {
                logger.error("cannot watch a client", metadata: ["error": "\(error)"])
                Glibc.close(fd)
                return
            }
            let client = ClientConnection(id: state.nextClientID, fd: fd, peer: peer, epoll: epoll,
                                          queueLimit: state.queueLimit, liveBufferBytes: state.liveBufferBytes, logger: logger)
            state.nextClientID += 1
            state.clients[fd] = client
            let hello = HelloMessage(devices: state.devicesByID, settings: state.settings,
                                     lastSeq: state.history.lastSeq, oldestSeq: state.history.oldestSeq)
            client.sendControl(hello)
            logger.info("client connected", metadata: ["client": "\(client.id)", "pid": "\(peer.pid)", "uid": "\(peer.uid)"])
            reapFinished(&state)
        }
    }

    /// What epoll reported for a client's socket.
    func socketEvent(_ fd: Int32, events: UInt32) {
        state.withLock { state in
            guard let client = state.clients[fd] else { return }
            if events & Epoll.hangup != 0 {
                // The peer closed both directions (a half-close only ends its input): nothing can reach it.
                // A source's last readings may still wait in the socket: they count, so take them first.
                if client.pressureSource != nil, !client.readingPaused {
                    _ = client.readAvailable()
                    processRequests(client, &state)
                }
                client.markFinished()
            } else {
                if events & Epoll.output != 0 {
                    client.socketWritable()
                    if client.readingPaused, client.writable { processRequests(client, &state) }
                }
                if events & Epoll.input != 0, !client.readingPaused {
                    _ = client.readAvailable()
                    processRequests(client, &state)
                    if client.inputEnded { detachSource(client, reason: "the source closed its connection", &state) }
                }
            }
            reapFinished(&state)
        }
    }

    /// Closes clients whose close grace has run out; returns the next such deadline.
    func expireCloses(now: UInt64) -> UInt64 {
        state.withLock { state in
            var next = UInt64.max
            for client in state.clients.values {
                client.expire(now: now)
                next = min(next, client.nextDeadline)
            }
            reapFinished(&state)
            return next
        }
    }

    /// How long a stopping penkitd waits for a client to take the strokes queued for it
    /// (docs/daemon.md); past it the client is cut off with `overflow`.
    static let shutdownGrace: Duration = .seconds(1)

    /// Tells every client the server is stopping, after the strokes queued for it, and closes
    /// them; each is closed within about the grace (the socket loop ends when all are).
    func shutdown(reason: String) {
        state.withLock { state in
            state.stopping = true
            let now = MonotonicClock.now()
            for client in state.clients.values { client.finish(ShutdownMessage(reason: reason), grace: Self.shutdownGrace, now: now) }
            reapFinished(&state)
        }
    }

    func apply(config: DaemonConfig, policy: PeerPolicy, sourcePolicy: PeerPolicy, recordPolicy: PeerPolicy) {
        state.withLock { state in
            state.config = config
            state.policy = policy
            state.sourcePolicy = sourcePolicy
            state.recordPolicy = recordPolicy
            state.queueLimit = config.clientBufferBytes
            state.liveBufferBytes = config.clientLiveBufferBytes
            state.maxClients = config.maxClients
            state.history.capacity = config.historyStrokes
            state.history.byteLimit = config.historyBytes
            state.history.trim()
        }
    }

    var clientCount: Int { state.withLock { $0.clients.count } }
    /// Waits until `count` clients have subscribed, or `isStopping`: woken by each subscription,
    /// and at least every 25 ms to see a stop.
    func waitForSubscribers(_ count: Int, isStopping: () -> Bool) {
        while !isStopping(), subscribedCount < count {
            _ = subscribed.wait(timeout: .now() + .milliseconds(25))
        }
    }

    var subscribedCount: Int { state.withLock { $0.clients.values.filter { !$0.channels.isEmpty && !$0.closing }.count } }

    // MARK: requests

    /// Handles complete request lines. A line over 64 KiB is fatal for that client; any other
    /// bad line gets an error and the connection stays usable. While the client does not read
    /// its replies, its requests are not read either, so they cannot pile up in penkitd.
    private func processRequests(_ client: ClientConnection, _ state: inout HubState) {
        guard !client.closing else { return }
        // Lines are taken from the front by index and the handled prefix removed once on the
        // way out: removing each line as it is handled is quadratic in a burst of many lines.
        var start = client.input.startIndex
        defer { client.input.removeSubrange(..<min(start, client.input.endIndex)) }
        while let newline = client.input[start...].firstIndex(of: UInt8(ascii: "\n")) {
            if newline - start > PenProtocol.maxLineBytes { break }
            guard client.writable else {
                client.pauseReading()
                return
            }
            var line = Array(client.input[start..<newline])
            start = newline + 1
            if line.last == UInt8(ascii: "\r") { line.removeLast() }
            if line.isEmpty { continue }
            if client.pressureSource != nil {
                pressureReading(client, line, &state)
                if client.closing { return }
                continue
            }
            if PressureSourceRequest.isDeclaration(line) {
                declareSource(client, line, &state)
                if client.closing { return }
                continue
            }
            if RecordRequest.isRecordRequest(line) {
                record(client, line, &state)
                continue
            }
            if StatusRequest.isStatusRequest(line) {
                status(client, line, state)
                continue
            }
            switch SubscribeRequest.parse(line) {
            case .success(let request):
                subscribe(client, request, &state)
            case .failure(let error):
                logger.debug("bad client line", metadata: ["client": "\(client.id)", "code": "\(error.code.rawValue)"])
                client.sendControl(error)
            }
            if client.closing { return }
        }
        if client.readingPaused { client.resumeReading() }
        if client.input.count - start > PenProtocol.maxLineBytes {
            client.close(lastLine: ErrorMessage(code: .lineTooLong,
                                                message: "request lines are limited to \(PenProtocol.maxLineBytes) bytes",
                                                fatal: true), now: MonotonicClock.now())
            client.input = []
            start = 0
        }
    }

    private func subscribe(_ client: ClientConnection, _ request: SubscribeRequest, _ state: inout HubState) {
        client.channels = request.channels
        client.prediction = request.predict ?? .standard
        client.strokeParts = request.strokeParts
        predictionVariants.update(state.clients.values.map(\.prediction))
        subscribed.signal()
        var replay: [(seq: UInt64, line: ReliableLine)] = []
        if let since = request.since, request.channels.contains(.strokes) {
            if let missing = state.history.missing(after: since) {
                client.sendControl(ErrorMessage(
                    code: .historyGap,
                    message: "strokes \(missing.lowerBound)...\(missing.upperBound) are no longer in the history; "
                        + (state.history.entries.isEmpty ? "none is held" : "replaying from \(state.history.oldestSeq)")))
            }
            replay = state.history.after(since)
        }
        // Under the hub's lock, as every `device` message is sent: no change falls between this
        // list and the first `device` message the client gets.
        let devices = request.channels.contains(.devices) ? state.devicesByID : nil
        client.sendControl(SubscribedMessage(channels: request.channels, replaying: replay.count,
                                             predict: client.prediction, devices: devices,
                                             strokePartPoints: request.strokeParts ? state.strokePartPoints : nil))
        if request.channels.contains(.devices) {
            for (_, line) in state.sourceStates.sorted(by: { $0.key < $1.key }) {
                client.deliverReliable(seq: 0, line: .bytes(line), channel: .devices)
            }
        }
        client.replay(replay)
    }

    // MARK: helpers

    private func reapFinished(_ state: inout HubState) {
        var removed = false
        for (fd, client) in state.clients where client.finished {
            detachSource(client, reason: "the source disconnected", &state)
            state.clients[fd] = nil
            epoll.remove(fd)
            Glibc.close(fd)
            removed = true
            logger.info("client disconnected", metadata: ["client": "\(client.id)"])
        }
        if removed { predictionVariants.update(state.clients.values.map(\.prediction)) }
    }

    /// A connection that is not served: one fatal error line (if the socket takes it), then closed.
    private func refuse(_ fd: Int32, code: ErrorMessage.Code, reason: String) {
        var line = ErrorMessage(code: code, message: reason, fatal: true).jsonBytes()
        line.append(UInt8(ascii: "\n"))
        _ = line.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT | MSG_NOSIGNAL)) }
        Glibc.close(fd)
    }

    var isEmpty: Bool { state.withLock { $0.clients.isEmpty } }
}

/// Everything the hub's lock guards.
struct HubState {
    var clients: [Int32: ClientConnection] = [:]
    var nextClientID = 1
    var history: StrokeHistory
    var devices: [Int: DeviceInfo] = [:]
    var settings: [String: String]
    var policy: PeerPolicy
    /// Who may declare itself a pressure source (`pressure-sources`).
    var sourcePolicy: PeerPolicy
    /// Who may read the flight recorder (`PeerPolicy.recorders`).
    var recordPolicy: PeerPolicy
    /// The connection feeding each device's pressure, by device id.
    var sources: [Int: Int32] = [:]
    /// Each device's latest `pressure-source` line, as the input thread published it: a client
    /// that subscribes to `devices` later gets it after `subscribed`.
    var sourceStates: [Int: [UInt8]] = [:]
    var queueLimit: Int
    var liveBufferBytes: Int
    var maxClients: Int
    /// Points per part of a long stroke (`stroke-part-points`), as `subscribed` tells a client that takes parts.
    var strokePartPoints: Int
    /// The config in force, for `status`; replaced on reload.
    var config: DaemonConfig
    var stopping = false

    /// The devices as `hello` and `subscribed` list them.
    var devicesByID: [DeviceInfo] { devices.values.sorted { $0.id < $1.id } }
}

extension PeerCredentials {
    /// The connecting process, as the kernel recorded it at connect(2) (SO_PEERCRED).
    init?(socket fd: Int32) {
        var pid: Int32 = 0, uid: UInt32 = 0, gid: UInt32 = 0
        guard penkit_peer_credentials(fd, &pid, &uid, &gid) == 0 else { return nil }
        self.init(pid: pid, uid: uid, gid: gid)
    }
}
