import PenKit
import PenVirtualTablet

/// penkitd.conf's top-level keys, in the order its sample lists them (`ConfigKey`). Families of
/// keys with a part of their own in the name (`ink-TOOL`, `action-TRIGGER`) and the `[device]`
/// and `[tool]` sections have their own readers (`InkChoice`, `ActionMap`, `DeviceSections`,
/// `ToolFeelChoice`).
enum ConfigKeys {
    static let all: [ConfigKey] = [
        .text("socket", \.socketPath, applies: .afterRestart, doc: """
            Socket path. Default: /run/penkit/penkit.sock for root,
            $XDG_RUNTIME_DIR/penkit/penkit.sock for a user. Ignored under socket activation.
            """),
        .text("socket-group", \.socketGroup, applies: .onReload,
              doc: "Group that owns the socket; its members may connect. Default: penkitd's group."),
        ConfigKey(name: "socket-mode", values: "octal, 0 to 0777", defaultValue: "0660", applies: .onReload, inStatus: false,
                  doc: "Socket file mode (octal).",
                  read: { config, text throws(ConfigValueError) in
                      guard let mode = UInt32(text, radix: 8), mode <= 0o777 else { throw ConfigValueError("socket-mode must be octal, like 0660") }
                      config.socketMode = mode
                  },
                  shown: { "0" + String($0.socketMode, radix: 8) }),
        .list("allow-users", \.allowUsers, applies: .onReload, doc: """
            Who may connect (checked with SO_PEERCRED) besides root and penkitd's own
            user: comma-separated names or numeric ids. The socket group is always allowed.
            """),
        .list("allow-groups", \.allowGroups, applies: .onReload, doc: ""),
        .list("pressure-sources", \.pressureSources, applies: .onReload, doc: """
            Who may be a pressure source (docs/protocol.md) besides root and penkitd's own
            user: comma-separated user names or ids, and @GROUP for a group's members.
            Readers allowed above are never sources unless listed here.
            """),
        .integer("history-strokes", \.historyStrokes, default: 1024, applies: .onReload,
                 doc: "Finalized strokes kept for clients that resume with `since`."),
        .integer("history-bytes", \.historyBytes, default: 2 << 20, applies: .onReload, doc: ""),
        .integer("stroke-part-points", \.strokePartPoints, default: PartedStroke.defaultPointsPerPart,
                 upTo: PartedStroke.maxPointsPerPart, applies: .afterRestart, doc: """
            Clients that ask for strokes in parts get a stroke with more points than this
            as `strokePart` lines of at most this many (1-512; docs/protocol.md).
            """),
        .integer("client-buffer-bytes", \.clientBufferBytes, default: 4 << 20, applies: .onReload, doc: """
            Bytes of finalized strokes queued for one slow client before it is cut off
            with an `overflow` error (it may reconnect with `since`).
            """),
        .integer("client-live-buffer-bytes", \.clientLiveBufferBytes, default: 64 << 10, applies: .onReload,
                 doc: "Bytes buffered for one client before its live frames are dropped (and counted)."),
        .integer("max-clients", \.maxClients, default: 64, applies: .onReload,
                 doc: "Connections served at once; one more gets a `too_many_clients` error and is closed."),
        .boolean("smoothing", \.smoothing, default: true, applies: .afterRestart, inStatus: true,
                 doc: "libinput's smoothing of x, y and tilt (see libinput/70-penkit-no-smoothing.quirks)."),
        .boolean("warm-up", \.warmUp, default: true, applies: .afterRestart, doc: """
            Run the frame path on a shadow engine 500 µs before the pen's next report can
            come, so the report finds it in the cache: lower latency for one more wake-up
            per report while a pen is in proximity.
            """),
        .boolean("virtual-tablet", \.virtualTablet, default: false, applies: .afterRestart, inStatus: true, doc: """
            Give every app the pen through a virtual tablet (uinput) that penkitd writes, with
            the real tablet grabbed (docs/virtual-tablet.md). Live input only.
            """),
        ConfigKey(name: "virtual-tablet-lead-ms", values: "0 (off) to \(VirtualTabletLead.largestMilliseconds)", defaultValue: "0",
                  applies: .afterRestart, inStatus: true, doc: """
            How far ahead of the real pen the virtual tablet writes it while it is in contact, on
            penkit's prediction, in ms (0: never). Apps then draw nearer the pen and, where the
            prediction errs, that error; at a lift the ink ends where it ends without a lead, on
            the real pen's last report in contact (docs/virtual-tablet.md has what each lead costs).
            """,
                  read: { config, text throws(ConfigValueError) in
                      guard let ms = Int(text), ms >= 0, ms <= VirtualTabletLead.largestMilliseconds else {
                          throw ConfigValueError("virtual-tablet-lead-ms must be ms from 0 (off) to \(VirtualTabletLead.largestMilliseconds), not \"\(text)\"")
                      }
                      config.virtualTabletLeadMilliseconds = ms
                  },
                  shown: { String($0.virtualTabletLeadMilliseconds) }),
        ConfigKey(name: "flight-recorder", values: "0 (off) to \(RecordRequest.maxSeconds)", defaultValue: "60",
                  applies: .afterRestart, inStatus: true, doc: """
            Seconds of each tablet's input (and of the lines penkitd sent) kept for
            `penkit record` (docs/bug-reports.md); 0 turns it off. It holds pen positions,
            which can be handwriting.
            """,
                  read: { config, text throws(ConfigValueError) in
                      guard let seconds = Int(text), seconds >= 0, seconds <= RecordRequest.maxSeconds else {
                          throw ConfigValueError("flight-recorder must be seconds from 0 (off) to \(RecordRequest.maxSeconds), not \"\(text)\"")
                      }
                      config.flightRecorderSeconds = seconds
                  },
                  shown: { String($0.flightRecorderSeconds) }),
        .integer("unplug-grace-ms", \.unplugGraceMilliseconds, default: 500, upTo: 10_000, applies: .afterRestart,
                 inStatus: true, doc: """
            How long a pen lifted straight out of proximity waits for its tablet to vanish before it
            counts as a lift (the stroke finalized) rather than an unplug with the pen down (the stroke
            cancelled), in ms, 1 to 10000. The node's removal decides at once when it comes first; a lift
            held back delays only that tablet's events.
            """),
        .integer("pressure-wait-after-end-ms", \.readingsAfterEndMilliseconds, default: 5_000, upTo: 10_000,
                 applies: .afterRestart, inStatus: true, doc: """
            Once a stroke has ended (pen up), how long it waits at most for a pressure source's readings
            still due, in ms (1 to 10000), whatever latency the source stated: a lost reading holds its
            stroke back no longer than this.
            """),
        .choice("log-level", \.logLevel, ["trace", "debug", "info", "notice", "warning", "error", "critical"],
                default: "info", applies: .onReload, doc: "trace, debug, info, notice, warning, error, critical."),
        .text("state-dir", \.stateDirectory, resolve: WorkingDirectory.absolute, applies: .afterRestart, doc: """
            Where the stroke journal lives (STATE/journal). Default: $STATE_DIRECTORY under
            systemd, else /var/lib/penkit for root, else $XDG_STATE_HOME/penkit. A relative
            path is the directory penkitd was started in.
            """),
        .boolean("journal", \.journal.enabled, default: true, applies: .afterRestart, doc: """
            Keep the stroke journal, so that a restart loses no stroke and `since` works
            across restarts (docs/daemon.md, "Stroke journal").
            """),
        ConfigKey(name: "journal-fsync", values: JournalOptions.Fsync.allCases.map(\.rawValue).joined(separator: ", "),
                  defaultValue: JournalOptions.Fsync.interval.rawValue, applies: .afterRestart, inStatus: false, doc: """
            When a stroke's record reaches the disk: always (before it is sent; the pen's
            frames wait for the disk), interval (within journal-fsync-interval-ms, never
            waited for) or never (left to the kernel).
            """,
                  read: { config, text throws(ConfigValueError) in
                      guard let policy = JournalOptions.Fsync(rawValue: text) else {
                          throw ConfigValueError("journal-fsync must be one of \(JournalOptions.Fsync.allCases.map(\.rawValue).joined(separator: ", "))")
                      }
                      config.journal.fsync = policy
                  },
                  shown: { $0.journal.fsync.rawValue }),
        .integer("journal-fsync-interval-ms", \.journal.fsyncIntervalMilliseconds, default: 1000, applies: .afterRestart, doc: ""),
        .integer("journal-max-bytes", \.journal.maxBytes, default: 64 << 20, applies: .afterRestart,
                 doc: "The journal's bounds: its oldest segments go past either."),
        ConfigKey(name: "journal-max-age-days", values: "1 to 36500", defaultValue: "30", applies: .afterRestart, inStatus: false,
                  doc: "",
                  read: { config, text throws(ConfigValueError) in
                      config.journal.maxAgeSeconds = try ConfigKey.positive("journal-max-age-days", text, upTo: 36_500) * 86_400
                  },
                  shown: { String($0.journal.maxAgeSeconds / 86_400) }),
    ]

    static let byName: [String: ConfigKey] = Dictionary(uniqueKeysWithValues: all.map { ($0.name, $0) })

    /// The keys read at start only whose values differ between two configs, in the table's order.
    static func needingRestart(from old: DaemonConfig, to new: DaemonConfig) -> [String] {
        all.filter { $0.applies == .afterRestart && $0.shown(old) != $0.shown(new) }.map(\.name)
    }
}
