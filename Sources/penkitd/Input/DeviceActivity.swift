import PenKit
import Synchronization

/// What each tablet's pen is doing, for `status` requests (`penkit doctor`): proximity, contact,
/// the tools seen, how many reports and how fast. The input thread writes it (one uncontended
/// lock per tool event, no allocation but for a tool seen the first time); the socket thread reads.
final class DeviceActivity: Sendable {
    /// Spacings kept for the report rate: enough for a median that ignores a pause or two.
    static let spacingsKept = 32
    /// Spacings longer than this are a pause, not the report rate (a tablet reports at 100 Hz or faster).
    static let longestSpacing: UInt64 = 50_000

    struct Tablet: Sendable {
        var inProximity = false
        var tool: ToolIdentity?
        var contact = false
        var reports = 0
        /// The last report's time (µs, the source's clock: CLOCK_MONOTONIC when paced).
        var lastReport: UInt64?
        /// The report times' spacings, a ring of `spacingsKept`.
        var spacings: [UInt64] = []
        var nextSpacing = 0
        var toolsSeen: [ToolIdentity] = []
        /// The virtual tablet holds the device (EVIOCGRAB): no other reader gets its events.
        var grabbed = false

        /// One over the median spacing; nil before two reports in a row.
        var reportRateHz: Double? {
            guard !spacings.isEmpty else { return nil }
            let median = spacings.sorted()[spacings.count / 2]
            return median > 0 ? 1e6 / Double(median) : nil
        }
    }

    private let tablets = Mutex<[Int: Tablet]>([:])
    /// Live input and a paced replay: a report's age is on CLOCK_MONOTONIC.
    let paced: Bool

    init(paced: Bool) { self.paced = paced }

    func deviceAdded(_ id: Int) {
        var tablet = Tablet()
        tablet.spacings.reserveCapacity(Self.spacingsKept)
        tablets.withLock { tablets in
            // The virtual tablet grabs as the pipeline adds the device, before this is told of it.
            tablet.grabbed = tablets[id]?.grabbed ?? false
            tablets[id] = tablet
        }
    }

    /// The virtual tablet took (or let go of) its grab on the device (`TabletGrabs`).
    func grabChanged(device: Int, grabbed: Bool) {
        tablets.withLock { $0[device, default: Tablet()].grabbed = grabbed }
    }

    func deviceRemoved(_ id: Int) { _ = tablets.withLock { $0.removeValue(forKey: id) } }

    /// A tool event as the pipeline got it.
    func observe(_ event: TabletEvent, device: Int) {
        tablets.withLock { tablets in
            // In place (the dictionary's modify accessor): no copy of the spacings.
            if tablets[device] != nil { Self.update(&tablets[device]!, with: event) }
        }
    }

    static func update(_ tablet: inout Tablet, with event: TabletEvent) {
        // Spacings are between reports of one proximity: the first report after a proximity-in has none.
        let wasInProximity = tablet.inProximity
        if event.kind == .proximity {
            tablet.inProximity = event.state == .proximityIn
            if tablet.inProximity {
                tablet.tool = event.tool
                if !tablet.toolsSeen.contains(where: { $0.type == event.tool.type && $0.serial == event.tool.serial }) {
                    tablet.toolsSeen.append(event.tool)
                }
            }
        }
        tablet.contact = event.tipDown && tablet.inProximity
        // libinput makes one or more events of one evdev frame, all with its time: one report.
        if wasInProximity, let last = tablet.lastReport {
            if event.time <= last { return }
            let spacing = event.time - last
            if spacing <= longestSpacing {
                if tablet.spacings.count < spacingsKept {
                    tablet.spacings.append(spacing)
                } else {
                    tablet.spacings[tablet.nextSpacing] = spacing
                    tablet.nextSpacing = (tablet.nextSpacing + 1) % spacingsKept
                }
            }
        }
        tablet.reports += 1
        tablet.lastReport = event.time
    }

    func snapshot() -> [Int: Tablet] { tablets.withLock { $0 } }
}
