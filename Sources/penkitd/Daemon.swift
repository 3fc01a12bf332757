import CLinuxCalls
import Dispatch
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Logging
import PenEngine
import PenKit
import PenVirtualTablet
import Synchronization

/// penkitd's life: start the server, run the input thread, handle signals,
/// keep systemd informed, and stop cleanly.
final class Daemon: Sendable {
    private let logger: Logger
    private let server: SocketServer
    private let reloadConfig: @Sendable () throws -> DaemonConfig
    /// The config in force: read by the startup in `run`, replaced by `reload` on the SIGHUP
    /// queue, which can fire as soon as its handler is installed, before the startup is done.
    private let config: Mutex<DaemonConfig>
    private let logLevel: SharedLogLevel
    /// The services' group, watching the stop signals since penkitd started.
    private let group: ServiceGroup
    private let probe: LatencyProbe?
    private let journal: StrokeJournal.Opened
    /// The config's inks, shared with the input thread.
    private let inks: SharedInkChoice
    /// The config's device and tool sections, shared with the input thread.
    private let tablets: SharedSetting<TabletSettings>
    /// The config's preferred actions, shared with the input thread.
    private let actions: SharedSetting<ActionMap>
    /// The last seconds of input and of what was published, for `penkit record`; nil when off.
    private let recorder: FlightRecorder?
    /// What clients change for the input thread (pressure sources, horizons): the control plane
    /// posts, the input loop drains. Neither holds the other.
    private let inputControl: ControlQueue
    /// Whether pressure sources may attach: readings carry CLOCK_MONOTONIC times, which only live
    /// input and a paced replay share.
    private let takesPressureSources: Bool
    /// What each tablet's pen is doing: kept by the input thread, read by `status` requests.
    private let activity: DeviceActivity

    /// What steers the daemon from outside: its log and the level a reload sets, the group that
    /// handles the stop signals, and how SIGHUP re-reads the config.
    struct Steering: Sendable {
        var logger: Logger
        var logLevel: SharedLogLevel
        var group: ServiceGroup
        var reloadConfig: @Sendable () throws -> DaemonConfig
    }

    init(config: DaemonConfig, replay: ReplayPlan?, journal: StrokeJournal.Opened, probe: LatencyProbe? = nil,
         steering: Steering) throws {
        let logger = steering.logger
        self.group = steering.group
        self.probe = probe
        // Without its history: the hub holds the strokes it keeps, and a copy here would keep
        // alive those the hub lets go.
        var opened = journal
        opened.history = []
        self.journal = opened
        self.config = Mutex(config)
        self.inks = SharedInkChoice(config.inks)
        self.tablets = SharedSetting(config.tabletSettings)
        self.actions = SharedSetting(config.actions)
        self.logger = logger
        self.logLevel = steering.logLevel
        self.reloadConfig = steering.reloadConfig
        var settings = ["historyStrokes": String(config.historyStrokes), "journal": journal.status]
        // Which input the history (`since`) holds strokes of: a live daemon's journal holds live
        // input; a replay's, only when a state directory was named for it; without a journal,
        // this run's strokes alone.
        settings["history"] = journal.journal == nil ? "this-run" : (replay == nil ? "live" : "replay")
        if let replay {
            settings["smoothing"] = config.smoothing ? "true" : "false"
            // A replay is never passed off as live input: clients see which trace it is.
            settings["input"] = "replay"
            settings["replay"] = replay.path
            settings["realtime"] = replay.realtime ? "true" : "false"
            settings["loop"] = replay.loop ? "true" : "false"
        } else {
            settings["input"] = "live"
            // Live, libinput smooths as its quirks say for each device (docs/daemon.md), not as
            // penkitd's `smoothing` setting, which only steers the replay decoder.
            // With the virtual tablet on, penkitd reads its tablets raw (its own copy of the
            // quirks), and what apps get is the virtual tablet's filtered pen (`delivered`).
            settings["smoothing"] = config.virtualTablet ? "false" : "libinput-quirks"
        }
        settings["virtualTablet"] = replay == nil && config.virtualTablet ? "on" : "off"
        // Said in `hello`: anything that records pen input says so.
        settings["flightRecorder"] = config.flightRecorderSeconds > 0 ? "\(config.flightRecorderSeconds)s" : "off"
        let recorder = config.flightRecorderSeconds > 0
            ? FlightRecorder(seconds: config.flightRecorderSeconds, paced: replay == nil || replay?.realtime == true) : nil
        self.recorder = recorder
        // Readings carry CLOCK_MONOTONIC times: only live input and a paced replay share that clock.
        let paced = replay == nil || replay?.realtime == true
        takesPressureSources = paced
        inputControl = try ControlQueue()
        activity = DeviceActivity(paced: paced)
        self.server = try SocketServer(config: config, settings: settings,
                                       links: Hub.Links(inputControl: inputControl, takesPressureSources: paced, recorder: recorder,
                                                        activity: activity, probe: probe), logger: logger)
        // The journal's strokes, in the history before any client can ask for them with `since`.
        server.hub.restoreHistory(journal.history.map {
            (seq: $0.seq, line: JournaledStroke.line($0.payload, pointsPerPart: config.strokePartPoints,
                                                     historyBytes: config.historyBytes))
        })
    }

    func run(replay: ReplayPlan?, waitClients: Int, exitAfterReplay: Bool) throws {
        // SIGTERM/SIGINT have been watched since penkitd started (the group). A SIGHUP before
        // the reload service has started is ignored, not fatal.
        group.whenSignalled { [logger] name in logger.notice("stopping", metadata: ["signal": "\(name)"]) }
        signal(SIGHUP, SIG_IGN)
        signal(SIGPIPE, SIG_IGN)

        let group = self.group
        let devices: [DeviceInfo]
        do {
            devices = try replay?.validate(isStopping: { group.isStopping }) ?? []
        } catch is StoppedWhileStarting {
            logger.warning("stopped before the trace was read: nothing was replayed",
                           metadata: ["reason": "\(group.stopReason)", "trace": "\(replay?.path ?? "")"])
            return
        }
        // Devices first, so that the first client's hello already lists them.
        let tabletSettings = config.withLock { $0.tabletSettings }
        for device in devices { server.hub.deviceAdded(tabletSettings.described(device)) }

        let services: [any DaemonService] = [reloadService(), socketService(), journalService(),
                                             inputService(replay: replay, devices: devices, waitClients: waitClients,
                                                          exitAfterReplay: exitAfterReplay)]
        // The probe's figures are written however the group ends: a failed run's are evidence too.
        defer { probe?.write() }
        try group.run(services, logger: logger, ready: {
            SdNotify.send("READY=1\nSTATUS=serving \(devices.count) device(s)")
            logger.info("ready", metadata: ["devices": "\(devices.count)"])
        }, stopping: { SdNotify.send("STOPPING=1") })
        logger.info("stopped", metadata: ["reason": "\(group.stopReason)"])
    }

    /// SIGHUP re-reads the config, on a queue of its own: a reload reading a slow config file
    /// must not hold up a stop.
    private func reloadService() -> any DaemonService {
        let hup = SignalSourceService(DispatchSource.makeSignalSource(signal: SIGHUP, queue: DispatchQueue(label: "penkitd.reload")))
        return ActionService(name: "reload", start: { [weak self] _ in
            hup.resume { [weak self] in self?.reload() }
        }, stop: { hup.cancel() })
    }

    /// The socket loop: serves clients from the config in force when it starts (a SIGHUP during
    /// the startup has replaced it already). Pinged from the socket loop, so a wedged loop stops
    /// the pings and systemd restarts us. Its stop tells the clients why.
    private func socketService() -> any DaemonService {
        ActionService(name: "socket", start: { [self] failed in
            try server.start(config: config.withLock { $0 }, activatedSocket: SocketActivation.listeningSocket(),
                             watchdog: SdNotify.watchdogInterval(), failed: failed)
        }, stop: { [self] in server.stop(reason: group.stopReason) })
    }

    /// The journal was opened (and recovered) before anything started; its background sync
    /// ends with the close, after the input thread's last record.
    private func journalService() -> any DaemonService {
        ActionService(name: "journal", start: { _ in }, stop: { [journal] in journal.journal?.close() })
    }

    /// The input thread: one `InputLoop` over live tablets or the trace.
    private func inputService(replay: ReplayPlan?, devices: [DeviceInfo], waitClients: Int,
                              exitAfterReplay: Bool) -> any DaemonService {
        let config = self.config.withLock { $0 }
        // Predictions undo libinput's smoothing: live input is smoothed (libinput's default) unless
        // the virtual tablet reads it raw; a replay follows penkitd's `smoothing` setting.
        let virtualTablet = replay == nil && config.virtualTablet
        let smoothed = replay == nil ? !virtualTablet : config.smoothing
        // Only a source that sleeps between reports has a cache to lose: not an unpaced replay.
        let warmsUp = config.warmUp && (replay?.realtime ?? true)
        var engineSettings = EngineConfiguration()
        engineSettings.readingsAfterEnd = .milliseconds(config.readingsAfterEndMilliseconds)
        let engine = engineSettings
        // The pressure sources' eventfd wakes the input thread's waits; none without sources.
        let wakeup = takesPressureSources ? inputControl : nil
        return ThreadService(name: "penkitd-input") { [self, journal, probe, logger, group, inks, tablets, actions, recorder,
                                                       inputControl, activity] isStopping in
            // Made on the input thread, which alone uses libinput and the virtual tablets. No
            // tablet is no failure (one may be plugged in later); no udev monitor or libinput is:
            // the error stops penkitd (and systemd restarts it), rather than serve without input.
            let live = try replay == nil
                ? LiveSource(quirksDirectory: virtualTablet ? RawTabletQuirks.directory(logger: logger) : nil,
                             pressure: wakeup, unplugGrace: UInt64(config.unplugGraceMilliseconds) * 1000,
                             recorder: recorder, activity: activity, logger: logger)
                : nil
            var stages = PipelineStages(configuration: engine, inks: inks, tablets: tablets, actions: actions,
                                        journal: journal.journal,
                                        virtualTablet: virtualTablet ? VirtualTabletStage(grabs: live?.grabs, logger: logger,
                                                                                          lead: VirtualTabletLead(milliseconds: config.virtualTabletLeadMilliseconds)) : nil)
            stages.toolLedger = recorder.map(ToolLedgerTap.init)
            let hub = server.hub
            // The default 50 µs timer slack would be added to every paced replay frame and to
            // libinput's timers; this thread sleeps rarely and briefly, so exact wake-ups cost nothing.
            _ = penkit_set_timer_slack_ns(1)
            let pipeline = MessagePipeline(prediction: EnginePrediction.penkit(smoothed: smoothed), stages: stages,
                                           after: (seq: journal.lastSeq, stroke: journal.lastStrokeID),
                                           splitsBeforeStrokes: true, probe: probe, strokePartPoints: config.strokePartPoints)
            let wiring = InputLoop.Wiring(control: inputControl, recorder: recorder, activity: activity, warmsUp: warmsUp)
            var loop = InputLoop(pipeline: pipeline, outlet: hub, wiring: wiring, devices: devices,
                                 logger: logger, isStopping: isStopping)
            // A read that fails (live: poll or libinput; a replay's schedule) fails the service.
            guard let replay else {
                guard var source = live else { return }
                _ = try loop.run(&source)
                return
            }
            hub.waitForSubscribers(waitClients, isStopping: isStopping)
            var source = try replay.source(devices: devices, pressure: wakeup, recorder: recorder, logger: logger)
            guard try loop.run(&source) else { return }
            logger.info("replay finished", metadata: ["trace": "\(replay.path)"])
            if exitAfterReplay { group.requestStop(reason: "replay finished") }
        }
    }

    /// SIGHUP: re-reads the config file (flags still win) and applies what can change at run
    /// time: log level, allowed peers, socket mode and group, history size, client limits and
    /// buffers, inks (from the next stroke), preferred actions (from the next press). A change to
    /// a key read at start only (`ConfigKey.Applies.afterRestart`) is logged as taking a restart.
    private func reload() {
        // systemd shows the unit as reloading until READY=1 (MONOTONIC_USEC: what systemd 253+ asks of Type=notify-reload).
        SdNotify.send("RELOADING=1\nMONOTONIC_USEC=\(MonotonicClock.now())")
        defer { SdNotify.send("READY=1") }
        do {
            var new = try reloadConfig()
            new.origins.reloaded = true
            try server.reload(config: new)
            logLevel.level = Logger.Level(rawValue: new.logLevel) ?? .info
            let old = config.withLock { $0 }
            if new.inks != old.inks { inks.replace(new.inks) }
            if new.tabletSettings != old.tabletSettings {
                tablets.replace(new.tabletSettings)
                // Clients learn of a device's new mapped space at once; samples follow from its next proximity.
                for device in server.hub.currentDevices {
                    let described = new.tabletSettings.described(device)
                    if described != device { server.hub.deviceUpdated(described) }
                }
            }
            if new.actions != old.actions { actions.replace(new.actions) }
            for key in ConfigKeys.needingRestart(from: old, to: new) {
                logger.warning("setting changed in the config file; it takes effect after a restart",
                               metadata: ["key": "\(key)"])
            }
            config.withLock { $0 = new }
            logger.notice("configuration reloaded", metadata: ["log-level": "\(new.logLevel)"])
        } catch {
            logger.error("configuration reload failed; keeping the old one", metadata: ["error": "\(error)"])
        }
    }
}
