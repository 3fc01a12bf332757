/// How the journal is kept (config keys `journal*`, docs/daemon.md).
struct JournalOptions: Sendable, Equatable {
    enum Fsync: String, Sendable, Equatable, CaseIterable {
        /// fdatasync after every stroke record, on the input thread, before the stroke is sent:
        /// survives power loss, and the input waits for the disk.
        case always
        /// fdatasync on a background queue at most `fsyncIntervalMilliseconds` after a stroke is
        /// written: the input never waits for the disk; a power loss can lose that interval.
        case interval
        /// Left to the kernel: survives a crash of penkitd, not of the machine.
        case never
    }

    var enabled = true
    var fsync: Fsync = .interval
    var fsyncIntervalMilliseconds = 1000
    /// Segments are removed, oldest first, while the journal is larger than this.
    var maxBytes = 64 << 20
    /// Segments whose newest record is older than this are removed (seconds).
    var maxAgeSeconds = 30 * 24 * 3600

    /// A new segment starts once the current one reaches this size: an eighth of the bound,
    /// so that removing the oldest one frees at most that much history at once.
    var segmentBytes: Int { max(64 << 10, maxBytes / 8) }
}
