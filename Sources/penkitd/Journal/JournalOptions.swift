/// How the journal is kept (config keys `journal*`, docs/daemon.md).
struct JournalOptions: Sendable, Equatable {
    enum Fsync: String, Sendable, Equatable, CaseIterable {
        /// fdatasync after every stroke record, before the stroke is sent: survives power loss.
        case always
        /// fdatasync at the first stroke after `fsyncIntervalMilliseconds` since the last one.
        case interval
        /// Left to the kernel: survives a crash of penkitd, not of the machine.
        case never
    }

    var enabled = true
    var fsync: Fsync = .always
    var fsyncIntervalMilliseconds = 1000
    /// Segments are removed, oldest first, while the journal is larger than this.
    var maxBytes = 64 << 20
    /// Segments whose newest record is older than this are removed (seconds).
    var maxAgeSeconds = 30 * 24 * 3600

    /// A new segment starts once the current one reaches this size: an eighth of the bound,
    /// so that removing the oldest one frees at most that much history at once.
    var segmentBytes: Int { max(64 << 10, maxBytes / 8) }
}
