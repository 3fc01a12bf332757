/// When a pen's next report can come, from the spacing of its last ones. A tablet reports at a
/// fixed rate while a tool is in proximity (125–200 Hz for most pens), but its reports reach the
/// host on the bus's polls: a Cintiq 22HD touch's come 7, 8, 8, 7, 8, 8 ms apart (1 ms USB
/// frames). The earliest the next one can come is the last one plus the shortest recent spacing.
struct ReportCadence {
    /// Spacings outside this range are not a report rate: above it the pen paused; below it
    /// (a 1 kHz device) reports come too fast for the path to fall out of the cache.
    static let shortest: UInt64 = 2_000
    static let longest: UInt64 = 20_000
    /// Spacings remembered: enough to hold a whole pattern of bus polls.
    static let remembered = 8

    private(set) var last: UInt64?
    private var spacings: [UInt64] = []
    private var oldest = 0

    init() { spacings.reserveCapacity(Self.remembered) }

    /// A report stamped `time` (µs, the kernel's clock).
    mutating func observe(_ time: UInt64) {
        if let last, time > last {
            let spacing = time - last
            if spacing < Self.shortest {
                spacings.removeAll(keepingCapacity: true)
                oldest = 0
            } else if spacing <= Self.longest {
                if spacings.count < Self.remembered {
                    spacings.append(spacing)
                } else {
                    spacings[oldest] = spacing
                    oldest = (oldest + 1) % Self.remembered
                }
            }
        }
        last = time
    }

    /// The tool left proximity: no report is coming.
    mutating func stop() {
        last = nil
        spacings.removeAll(keepingCapacity: true)
        oldest = 0
    }

    /// The earliest the next report can come, if the pen is reporting at a steady rate.
    var earliestNextReport: UInt64? {
        guard let last, let spacing = spacings.min() else { return nil }
        return last + spacing
    }
}
