import Glibc
import Logging

/// Log lines for systemd's journal: when stderr is the journal's stream (`$JOURNAL_STREAM` names
/// its device and inode, see systemd.exec(5)), each line starts with its syslog priority as
/// sd-daemon(3) prefixes it (`<4>` for a warning), which journald stores as PRIORITY and strips.
/// Everything else still goes through swift-log's stderr handler.
struct JournalLogHandler: LogHandler {
    var logLevel: Logger.Level = .trace
    var metadata: Logger.Metadata = [:]
    let label: String

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    /// Whether fd 2 is the stream `$JOURNAL_STREAM` names ("DEVICE:INODE").
    static func stderrIsJournal(environment value: String?) -> Bool {
        guard let value, let colon = value.firstIndex(of: ":"),
              let device = UInt64(value[..<colon]), let inode = UInt64(value[value.index(after: colon)...]) else { return false }
        var st = stat()
        guard fstat(2, &st) == 0 else { return false }
        return UInt64(st.st_dev) == device && UInt64(st.st_ino) == inode
    }

    /// syslog(3) priorities, as journald reads them from the `<N>` prefix.
    static func priority(_ level: Logger.Level) -> Int {
        switch level {
        case .trace, .debug: 7
        case .info: 6
        case .notice: 5
        case .warning: 4
        case .error: 3
        case .critical: 2
        }
    }

    /// One line per event: the journal already stamps time and unit, so only the priority, the
    /// label and the message (and metadata) are written. Newlines inside would start lines of
    /// their own at the default priority, so they are escaped.
    static func line(_ event: LogEvent, label: String, metadata: Logger.Metadata) -> String {
        var merged = metadata
        if let extra = event.metadata { merged.merge(extra) { _, new in new } }
        var text = "<\(priority(event.level))>\(label): \(event.message)"
        if !merged.isEmpty {
            text += " " + merged.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        }
        return text.replacingNewlines() + "\n"
    }

    func log(event: LogEvent) {
        var bytes = Array(Self.line(event, label: label, metadata: metadata).utf8)
        bytes.withUnsafeMutableBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let n = write(2, buffer.baseAddress! + offset, buffer.count - offset)
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { return }
                offset += n
            }
        }
    }
}

private extension String {
    func replacingNewlines() -> String {
        guard contains("\n") else { return self }
        return split(separator: "\n", omittingEmptySubsequences: false).joined(separator: "\\n")
    }
}
