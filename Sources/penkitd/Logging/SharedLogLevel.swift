import Logging
import Synchronization

/// penkitd's one log level, shared by every copy of its Logger, so that a SIGHUP
/// reload (`log-level`) takes effect in every component at once.
final class SharedLogLevel: Sendable {
    private let raw: Atomic<UInt8>
    private static let levels = Logger.Level.allCases

    init(_ level: Logger.Level) { raw = Atomic(UInt8(Self.levels.firstIndex(of: level) ?? 2)) }

    var level: Logger.Level {
        get { Self.levels[Int(raw.load(ordering: .relaxed))] }
        set { raw.store(UInt8(Self.levels.firstIndex(of: newValue) ?? 2), ordering: .relaxed) }
    }
}

/// swift-log's stderr handler, or the journal's when stderr is the journal (JournalLogHandler),
/// filtered by the shared level instead of a per-copy one.
struct SharedLevelLogHandler: LogHandler {
    private var inner: any LogHandler
    let shared: SharedLogLevel

    init(label: String, level: SharedLogLevel, toJournal: Bool) {
        if toJournal {
            inner = JournalLogHandler(label: label)
        } else {
            var stream = StreamLogHandler.standardError(label: label)
            stream.logLevel = .trace
            inner = stream
        }
        shared = level
    }

    var logLevel: Logger.Level {
        get { shared.level }
        set { shared.level = newValue }
    }

    var metadata: Logger.Metadata {
        get { inner.metadata }
        set { inner.metadata = newValue }
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { inner[metadataKey: key] }
        set { inner[metadataKey: key] = newValue }
    }

    func log(event: LogEvent) { inner.log(event: event) }
}
