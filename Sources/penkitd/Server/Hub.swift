import CLinuxCalls
import Dispatch
import Glibc
import Logging
import PenKit
import Synchronization

/// The clients, the stroke history and the device list, behind one lock, and the two threads'
/// ways in: the data plane (`FanOut`), which the input thread publishes through, and the control
/// plane (`ClientAdmission`, `RequestRouter` and its handlers), which the socket loop runs.
///
/// The input thread's `publish` writes each line straight to every client socket that can take
/// it (non-blocking): one thread wake-up between a pen event and the clients, and each line
/// encoded once. Only what a slow client cannot take now waits in that client's buffers, for the
/// socket loop to send on EPOLLOUT. The socket loop accepts clients, reads their requests and
/// sends those leftovers, under the same lock, so no client state is ever touched by two threads
/// at once. What requests change for the input thread goes to it as inputs (`ControlQueue`).
final class Hub: Sendable {
    private let state: Mutex<HubState>
    private let logger: Logger
    private let probe: LatencyProbe?
    let epoll: Epoll
    /// Where `warmSockets` leaves what it read, so the reads stay in the program.
    private let warmth = Atomic<Int>(0)
    /// Signalled at every subscription, for `waitForSubscribers`.
    private let subscribed = DispatchSemaphore(value: 0)
    private let admission: ClientAdmission
    private let requests: RequestRouter
    /// Wakes the socket loop when a stroke comes into a history with none waiting to be deflated.
    private let historyWake: Int32

    /// What the hub shares with the rest of penkitd.
    struct Links: Sendable {
        /// Where the control plane tells the input thread of pressure readings and horizons.
        var inputControl: ControlQueue
        /// Whether pressure sources may attach: not to an unpaced replay, whose times are not on
        /// the clock readings use.
        var takesPressureSources = true
        /// The flight recorder `record` requests read; nil when it is off.
        var recorder: FlightRecorder?
        /// What each tablet's pen is doing, which the input thread keeps for `status` requests.
        var activity = DeviceActivity(paced: true)
        var probe: LatencyProbe?
    }

    init(epoll: Epoll, config: DaemonConfig, settings: [String: String], policies: HubPolicies, links: Links, logger: Logger) {
        self.epoll = epoll
        self.logger = logger
        probe = links.probe
        admission = ClientAdmission(epoll: epoll, logger: logger)
        requests = RequestRouter(
            subscribe: SubscribeHandler(inputControl: links.inputControl, subscribed: subscribed),
            pressureSources: PressureSourceHandler(inputControl: links.takesPressureSources ? links.inputControl : nil, logger: logger),
            status: StatusHandler(activity: links.activity),
            record: RecordHandler(recorder: links.recorder, logger: logger),
            settings: SettingsHandler(logger: logger),
            logger: logger)
        let history = StrokeHistory(capacity: config.historyStrokes, byteLimit: config.historyBytes)
        state = Mutex(HubState(fanOut: FanOut(history: history),
                               control: ControlState(config: config, settings: settings, policies: policies)))
        historyWake = penkit_eventfd()
        // without it the history is still deflated, whenever the socket loop next wakes
        if historyWake < 0 || (try? epoll.add(historyWake, events: Epoll.input)) == nil {
            logger.warning("no eventfd to wake the socket loop for the history: strokes are deflated later")
        }
    }

    // MARK: from the input thread

    /// Writes a batch to every subscribed client. Never waits on a client.
    func publish(_ batch: OutboundBatch) {
        guard !batch.isEmpty else { return }
        if let probe { Self.record(batch, .encoded, in: probe) }
        let wake = state.withLock { state in
            state.fanOut.publish(batch)
            removeFinished(&state)
            defer { state.fanOut.history.wakeForDeflating = false }
            return state.fanOut.history.wakeForDeflating
        }
        if let probe { Self.record(batch, .writtenToSockets, in: probe) }
        if wake, historyWake >= 0 {
            var one: UInt64 = 1
            _ = Glibc.write(historyWake, &one, 8)
        }
    }

    /// Warms the write path before a pen report (`FrameWarmer` warms the frame path): the client
    /// table, and for each client the next frame would be written to, its state and its socket's
    /// send path in the kernel. No client receives anything.
    func warmSockets() {
        let touched = state.withLock { $0.fanOut.warm() }
        warmth.store(touched, ordering: .relaxed)
    }

    /// Strokes recovered from the journal, exactly as clients were first sent them, into the
    /// history before any client can ask for them with `since`.
    func restoreHistory(_ strokes: [(seq: UInt64, line: ReliableLine)]) {
        state.withLock { state in
            state.fanOut.history.restore(strokes)
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
    var currentDevices: [DeviceInfo] { state.withLock { $0.fanOut.devicesByID } }

    private func deviceChanged(_ change: DeviceChangeMessage) {
        state.withLock { state in
            state.fanOut.deliver(change)
            removeFinished(&state)
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
            _ = admission.admit(fd, &state)
            removeFinished(&state)
        }
    }

    /// What epoll reported for a client's socket.
    func socketEvent(_ fd: Int32, events: UInt32) {
        if fd == historyWake {
            var value: UInt64 = 0
            _ = Glibc.read(historyWake, &value, 8)
            return
        }
        let jobs = state.withLock { state -> [SettingsHandler.Job] in
            defer { removeFinished(&state) }
            handleSocketEvent(fd, events: events, &state)
            var jobs: [SettingsHandler.Job] = []
            swap(&jobs, &state.control.settingsJobs)
            return jobs
        }
        finishSettings(jobs)
    }

    /// Settings changes written out of the lock, in order: each answer, then the client's
    /// waiting requests (which may hold another change).
    private func finishSettings(_ jobs: [SettingsHandler.Job]) {
        var jobs = jobs[...]
        while let job = jobs.popFirst() {
            let answer = requests.settings.save(job)
            let more = state.withLock { state -> [SettingsHandler.Job] in
                defer { removeFinished(&state) }
                state.control.settingsPending.remove(job.client)
                if let client = state.fanOut.clients[job.fd], client.id == job.client {
                    answer.send(to: client)
                    requests.handleLines(of: client, &state)
                }
                var more: [SettingsHandler.Job] = []
                swap(&more, &state.control.settingsJobs)
                return more
            }
            jobs.append(contentsOf: more)
        }
    }

    private func handleSocketEvent(_ fd: Int32, events: UInt32, _ state: inout HubState) {
        guard let client = state.fanOut.clients[fd] else { return }
        if events & Epoll.hangup != 0 {
            // The peer closed both directions (a half-close only ends its input): nothing can reach it.
            // A source's last readings may still wait in the socket: they count, so take them first.
            if client.pressureSource != nil, !client.requests.paused {
                _ = client.readAvailable()
                requests.handleLines(of: client, &state)
            }
            client.markFinished()
        } else {
            if events & Epoll.output != 0 {
                client.socketWritable()
                if client.requests.paused, client.writable { requests.handleLines(of: client, &state) }
            }
            if events & Epoll.input != 0, !client.requests.paused {
                _ = client.readAvailable()
                requests.handleLines(of: client, &state)
                if client.requests.ended {
                    requests.pressureSources.detach(client, reason: "the source closed its connection", &state)
                }
            }
        }
    }

    /// Closes clients whose close grace has run out; returns the next such deadline.
    func expireCloses(now: UInt64) -> UInt64 {
        state.withLock { state in
            let next = state.fanOut.expireCloses(now: now)
            removeFinished(&state)
            return next
        }
    }

    /// Deflates the strokes the history has held a while, outside the lock, and gives the freed
    /// heap back to the system now and then; returns when a stroke is next due.
    func deflateHistory(now: UInt64) -> UInt64 {
        let (taken, due) = state.withLock { ($0.fanOut.history.takeForDeflating(now: now), $0.fanOut.history.nextDeflation) }
        guard !taken.isEmpty else { return due }
        let deflated = taken.map { ($0.seq, DeflatedLine($0.line)) }
        let (trim, next) = state.withLock { ($0.fanOut.history.put(deflated), $0.fanOut.history.nextDeflation) }
        if trim { _ = penkit_trim_heap() }
        return next
    }

    /// How long a stopping penkitd waits for a client to take the strokes queued for it
    /// (docs/daemon.md); past it the client is cut off with `overflow`.
    static let shutdownGrace: Duration = .seconds(1)

    /// Tells every client the server is stopping, after the strokes queued for it, and closes
    /// them; each is closed within about the grace (the socket loop ends when all are).
    func shutdown(reason: String) {
        state.withLock { state in
            state.control.stopping = true
            let now = MonotonicClock.now()
            for client in state.fanOut.clients.values { client.finish(ShutdownMessage(reason: reason), grace: Self.shutdownGrace, now: now) }
            removeFinished(&state)
        }
    }

    /// A reload: new policies and limits for clients from now on, and the history's new bounds.
    func apply(config: DaemonConfig, policies: HubPolicies) {
        state.withLock { state in
            state.control.config = config
            state.control.policies = policies
            state.fanOut.history.capacity = config.historyStrokes
            state.fanOut.history.byteLimit = config.historyBytes
            state.fanOut.history.trim()
        }
    }

    var clientCount: Int { state.withLock { $0.fanOut.clients.count } }

    /// Waits until `count` clients have subscribed, or `isStopping`: woken by each subscription,
    /// and at least every 25 ms to see a stop.
    func waitForSubscribers(_ count: Int, isStopping: () -> Bool) {
        while !isStopping(), subscribedCount < count {
            _ = subscribed.wait(timeout: .now() + .milliseconds(25))
        }
    }

    var subscribedCount: Int { state.withLock { $0.fanOut.subscribedCount } }

    var isEmpty: Bool { state.withLock { $0.fanOut.clients.isEmpty } }

    /// Closes the clients that finished: a source among them detaches, and when a client that
    /// asked for its own horizon leaves, the input thread stops encoding it. One scan, allocating
    /// nothing, when none finished (as on nearly every publish).
    private func removeFinished(_ state: inout HubState) {
        guard state.fanOut.hasFinished else { return }
        for client in state.fanOut.clients.values where client.finished {
            requests.pressureSources.detach(client, reason: "the source disconnected", &state)
        }
        state.fanOut.removeFinished { client in
            epoll.remove(client.fd)
            Glibc.close(client.fd)
            logger.info("client disconnected", metadata: ["client": "\(client.id)"])
        }
        requests.subscribe.postHorizons(&state)
    }
}
