import ArgumentParser
import CLinuxCalls
import Dispatch
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Logging
import PenInput
import PenKit

@main
struct Penkitd: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "penkitd",
        abstract: "Serves tablet pen frames and finalized strokes to local clients over a Unix socket.",
        discussion: "Settings come from the config file (docs/daemon.md), then from these flags.",
        version: PenkitVersion.string
    )

    @Option(help: "Config file (default: /etc/penkit/penkitd.conf for root, else $XDG_CONFIG_HOME/penkit/penkitd.conf).")
    var config: String?

    @Option(help: "Socket path (default: $XDG_RUNTIME_DIR/penkit/penkit.sock, or /run/penkit/penkit.sock for root).")
    var socket: String?

    @Option(help: "Group that owns the socket; its members may connect.")
    var socketGroup: String?

    @Option(help: "Socket file mode, octal (default 0660).")
    var socketMode: String?

    @Option(help: "Comma-separated users allowed to connect besides root and penkitd's own user.")
    var allowUsers: String?

    @Option(help: "Comma-separated groups whose members may connect.")
    var allowGroups: String?

    @Option(help: "Finalized strokes kept for clients that resume with `since`.")
    var historyStrokes: Int?

    @Option(help: "Bytes of memory the finalized strokes kept for `since` may take (default 2 MiB; deflated after a second); a stroke whose line is longer stays in the journal only.")
    var historyBytes: Int?

    @Option(help: "Bytes of strokes queued per client before it is disconnected with `overflow`.")
    var clientBufferBytes: Int?

    @Option(help: "Seconds of each tablet's input the flight recorder keeps for `penkit record` (default 60; 0: off).")
    var flightRecorder: Int?

    @Option(help: "Points per part of a long stroke sent to clients that take parts (default 512, at most 512).")
    var strokePartPoints: Int?

    @Option(help: "Connections served at once (default 64); one more gets a `too_many_clients` error and is closed.")
    var maxClients: Int?

    @Option(help: "Replay an evemu trace instead of live tablets (penkit replay reads libinput record YAML).")
    var replay: String?

    @Flag(help: "Pace the replay at its recorded speed, with event times on CLOCK_MONOTONIC.")
    var realtime = false

    @Flag(help: "Replay the trace again and again.")
    var loop = false

    @Option(help: "Start the replay once this many clients have subscribed.")
    var waitClients: Int = 0

    @Flag(help: "Stop when the replay ends, after telling the clients.")
    var exitAfterReplay = false

    @Flag(inversion: .prefixedNo, help: "libinput's 4-sample smoothing of x, y and tilt (the replay decoder follows it).")
    var smoothing: Bool?

    @Flag(inversion: .prefixedNo, help: "Warm the frame path shortly before each pen report is due (default: on).")
    var warmUp: Bool?

    @Flag(help: "Give apps the pen through a virtual tablet (uinput) and grab the real one (config: virtual-tablet = on).")
    var virtualTablet = false

    @Option(help: "Where the stroke journal is kept (default: $STATE_DIRECTORY, else /var/lib/penkit for root, else $XDG_STATE_HOME/penkit).")
    var stateDir: String?

    @Flag(inversion: .prefixedNo, help: "Keep the stroke journal (default: on).")
    var journal: Bool?

    @Option(help: "When journal records reach the disk: interval (default; synced off the input thread within journal-fsync-interval-ms), always (before each stroke is sent), never.")
    var journalFsync: String?

    @Option(help: "Log level: trace, debug, info, notice, warning, error, critical.")
    var logLevel: String?

    @Option(help: ArgumentHelp("Record where each frame's latency goes inside penkitd; written to FILE as JSON on exit (for `penkit bench latency`).",
                               visibility: .hidden))
    var latencyProbe: String?

    /// The config file, then the flags. `warn` hears of a default config file that is there but
    /// cannot be read (it is skipped); one given with --config that cannot be read is an error.
    func loadConfig(isStopping: () -> Bool = { false }, warn: (String) -> Void = { _ in }) throws -> DaemonConfig {
        var config = DaemonConfig()
        // Relative to where penkitd was started, also when a reload reads it again.
        let file = WorkingDirectory.absolute(self.config ?? ConfigFile.defaultPath())
        config.configFile = file
        if let skipped = try ConfigFile.apply(path: file, required: self.config != nil,
                                              to: &config, isStopping: isStopping) {
            warn("\(skipped); using the defaults")
        }
        // The settings changed through the socket go over the file, under the flags. A replay
        // keeps them only in a state directory named for it, as it keeps its journal.
        if replay == nil || stateDir != nil {
            let directory = StateDirectory.resolve(configured: stateDir.map(WorkingDirectory.absolute) ?? config.stateDirectory)
            let overrides = SettingsOverrides.path(stateDirectory: directory)
            config.settingsFile = overrides
            if let skipped = try ConfigFile.apply(path: overrides, required: false, to: &config, overlay: true, isStopping: isStopping) {
                warn("\(skipped); the settings changed through the socket are not applied")
            }
        }
        for case let (key, value?) in configFlags {
            do { try ConfigFile.set(key: key, value: value, in: &config) } catch {
                throw ValidationError("--\(key): \(error.message)")
            }
            config.origins.record(flag: key)
        }
        return config
    }

    /// The flags that set a config key (each named as its key), with the value given, if any.
    var configFlags: [(key: String, value: String?)] {
        var flags: [(key: String, value: String?)] = [
            ("socket", socket), ("socket-group", socketGroup), ("socket-mode", socketMode),
            ("allow-users", allowUsers), ("allow-groups", allowGroups),
            ("history-strokes", historyStrokes.map(String.init)),
            ("history-bytes", historyBytes.map(String.init)), ("client-buffer-bytes", clientBufferBytes.map(String.init)),
            ("max-clients", maxClients.map(String.init)), ("log-level", logLevel),
            ("stroke-part-points", strokePartPoints.map(String.init)),
            ("state-dir", stateDir), ("journal-fsync", journalFsync),
            ("flight-recorder", flightRecorder.map(String.init)),
        ]
        if let smoothing { flags.append(("smoothing", smoothing ? "true" : "false")) }
        if let warmUp { flags.append(("warm-up", warmUp ? "true" : "false")) }
        if virtualTablet { flags.append(("virtual-tablet", "true")) }
        if let journal { flags.append(("journal", journal ? "true" : "false")) }
        return flags
    }

    func run() throws {
        // First: a stop may come while the config (a FIFO?) is still being read. The group
        // watches the stop signals from now on, and runs the services once they are made.
        let group = ServiceGroup()
        let config: DaemonConfig
        // Held until the logger, which the config's log-level shapes, exists.
        var warnings: [String] = []
        do {
            config = try loadConfig(isStopping: { group.isStopping }, warn: { warnings.append($0) })
        } catch is StoppedWhileStarting {
            return
        }
        let logLevel = SharedLogLevel(Logger.Level(rawValue: config.logLevel) ?? .info)
        let toJournal = JournalLogHandler.stderrIsJournal(environment: ProcessInfo.processInfo.environment["JOURNAL_STREAM"])
        let logger = Logger(label: "penkitd") { label in SharedLevelLogHandler(label: label, level: logLevel, toJournal: toJournal) }
        for warning in warnings { logger.warning("\(warning)") }
        let probe = latencyProbe.map { LatencyProbe(outputPath: $0) }
        let source = replay.map {
            ReplayPlan(path: $0, realtime: realtime, loop: loop,
                         options: DecoderOptions(smoothing: config.smoothing), probe: probe)
        }
        // A replay journals only into a state directory named on its command line: the default
        // one (or a config file's) is the live daemon's, whose history a replay must not join.
        var journalOptions = config.journal
        if replay != nil, stateDir == nil { journalOptions.enabled = false }
        let journal: StrokeJournal.Opened
        do {
            journal = try StrokeJournal.open(stateDirectory: StateDirectory.resolve(configured: config.stateDirectory),
                                             options: journalOptions, historyStrokes: config.historyStrokes,
                                             historyBytes: config.historyBytes, logger: logger)
        } catch {
            throw DaemonError("cannot start: \(error)")
        }
        let steering = Daemon.Steering(logger: logger, logLevel: logLevel, group: group, reloadConfig: {
            try self.loadConfig(isStopping: { group.isStopping }, warn: { logger.warning("\($0)") })
        })
        // `consume`: the recovered lines (up to eight times the history's bound, whole) end with
        // the daemon's start; the history keeps the ones it chose, deflated, and the heap goes back.
        let daemon = try Daemon(config: config, replay: source, journal: consume journal, probe: probe, steering: steering)
        _ = penkit_trim_heap()
        try daemon.run(replay: source, waitClients: waitClients, exitAfterReplay: exitAfterReplay)
    }
}
