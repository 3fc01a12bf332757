import PenKit

/// Everything penkitd can be told, with its defaults. The config file
/// (docs/daemon.md, systemd/penkitd.conf) and the flags fill it in, flags last.
struct DaemonConfig: Sendable, Equatable {
    /// Socket path; nil picks the default for the user or system service.
    var socketPath: String?
    /// Group that owns the socket; nil keeps the daemon's own group.
    var socketGroup: String?
    /// Socket file mode. 0660: owner and group only.
    var socketMode: UInt32 = 0o660
    /// Users (names or uids) whose clients are served, besides root and penkitd's own uid.
    var allowUsers: [String] = []
    /// Groups (names or gids) whose members' clients are served; the socket group is always one.
    var allowGroups: [String] = []
    /// Who may declare itself a pressure source besides root and penkitd's own user: user
    /// names or uids, and `@group` for a group's members. Readers are never sources by default.
    var pressureSources: [String] = []
    /// Finalized strokes kept for `since`.
    var historyStrokes: Int = 1024
    /// Bytes of finalized strokes' lines kept for `since`; a longer stroke stays only in the journal.
    var historyBytes: Int = 2 << 20
    /// Bytes of finalized strokes (and device changes) queued for one client before it is cut off with `overflow`.
    var clientBufferBytes: Int = 4 << 20
    /// Bytes penkitd may hold for one client, beyond what its socket takes, before live frames are dropped for it.
    var clientLiveBufferBytes: Int = 64 << 10
    /// A finalized stroke with more points (or control points) than this goes to clients that
    /// take parts as `strokePart` lines of at most this many (docs/protocol.md, "Long strokes").
    /// Takes a restart to change.
    var strokePartPoints: Int = PartedStroke.defaultPointsPerPart
    /// Connections served at once; one more gets `too_many_clients` and is closed.
    var maxClients: Int = 64
    /// libinput's 4-sample smoothing of x, y and tilt (the decoder follows it for replays).
    var smoothing: Bool = true
    /// Run the frame path once on a shadow engine shortly before each pen report is due, so the
    /// report finds it in the cache (`FrameWarmer`): one more wake-up per report, lower latency.
    var warmUp: Bool = true
    /// One uinput tablet per real pen tablet, which apps get through the compositor, while the real
    /// one is grabbed (docs/virtual-tablet.md). Live input only; takes a restart to change.
    var virtualTablet: Bool = false
    /// `virtual-tablet-lead-ms`: how far ahead the virtual tablet writes the pen in contact (0 to 8).
    var virtualTabletLeadMilliseconds: Int = 0
    /// Seconds of each tablet's input the flight recorder keeps for `penkit record`
    /// (docs/bug-reports.md); 0 turns it off. Takes a restart to change.
    var flightRecorderSeconds: Int = 60
    /// How long a pen lifted straight out of proximity waits for its tablet's node to vanish
    /// before it counts as a lift rather than an unplug with the pen down (`UnplugFilter`), ms.
    var unplugGraceMilliseconds: Int = 500
    /// How long a stroke waits after pen-up for a pressure source's readings still due, ms
    /// (`EngineConfiguration.readingsAfterEnd`).
    var readingsAfterEndMilliseconds: Int = 5_000
    /// trace, debug, info, notice, warning, error, critical.
    var logLevel: String = "info"
    /// Where the stroke journal lives; nil picks StateDirectory's default (`StateDirectory.resolve`).
    var stateDirectory: String?
    /// The stroke journal's policy and bounds.
    var journal = JournalOptions()
    /// Ink per tool type and tool serial (`ink-TOOL`, `ink-serial-SERIAL`); reloaded on SIGHUP.
    var inks = InkChoice()
    /// `[device MATCH]` sections: per-tablet settings (mapping); reloaded on SIGHUP.
    var devices = DeviceSections()
    /// `[tool TOOL]` and `[tool serial SERIAL]` sections: pressure curve, thresholds, hover cut-off; reloaded on SIGHUP.
    var feel = ToolFeelChoice()
    /// Preferred actions of stylus and pad buttons (`action-TRIGGER`, `action-double-press-ms`); reloaded on SIGHUP.
    var actions = ActionMap()
    /// Where the top-level settings came from, for errors found after parsing; not compared.
    var origins = ConfigOrigins()
    /// The config file read (or looked for), as `status` names it.
    var configFile: String?
    /// The settings changed through the socket, read over the config file (`SettingsOverrides`);
    /// nil when penkitd keeps none (a replay without --state-dir).
    var settingsFile: String?

    /// Every key the file's top takes, families as `ink-TOOL`, for the unknown-key error.
    static let keys = ConfigKeys.all.map(\.name) + ["ink-TOOL", "ink-serial-SERIAL"] + ActionMap.keys
}
