import PenEngine
import PenKit

/// Keeps the frame path in the cache between a pen's reports.
///
/// Between two reports (5–8 ms) the input thread sleeps, and on a busy machine, or a virtual one
/// whose core is lent out meanwhile, the engine's and the encoder's code and data are evicted:
/// the next frame then costs tens of µs of cache misses instead of a few (`penkit bench engine
/// --cold`). Shortly before the next report is due, the warmer runs the latest real events
/// through a shadow engine and encodes what it makes into the batch's buffer, then discards it
/// all, so the real frame that follows runs warm.
///
/// The shadow is a separate value (the engine has no shared references): it never changes the
/// real engine, never publishes and never journals. It is restarted every `restartAfter` events,
/// so its memory stays bounded whatever the stroke's length, and it costs one extra frame's work
/// per report.
struct FrameWarmer {
    /// How long before the earliest the next report can come the warm-up runs (µs): long enough
    /// for a cold warm-up to finish first, short enough that little is evicted again before the
    /// report. Of 150, 300, 500 and 1000 µs, 500 gave the lowest latency in `penkit bench latency`.
    static let lead: UInt64 = 500
    /// A warm-up that could not finish before the report can come is skipped rather than delay it (µs).
    static let margin: UInt64 = 200
    static let restartAfter = 256
    /// Real events kept for the shadow between two warm-ups: a report's frame is one to three.
    static let unseenLimit = 8

    private var cadence = ReportCadence()
    private var warmedFor: UInt64?
    private var shadow: StrokeEngine?
    /// Events the shadow has handled since it was last started: never above `restartAfter` plus a report's few.
    private(set) var shadowEvents = 0
    /// Warm-ups run so far.
    private(set) var warmUps = 0
    private var unseen: [(event: TabletEvent, device: UInt32)] = []
    private var output: [EngineMessage] = []

    init() {
        unseen.reserveCapacity(Self.unseenLimit)
        output.reserveCapacity(16)
    }

    /// A real tool event, after the real engine handled it.
    mutating func observe(_ event: TabletEvent, device: UInt32) {
        if event.kind == .proximity, event.state == .proximityOut {
            cadence.stop()
            shadow = nil
            unseen.removeAll(keepingCapacity: true)
            return
        }
        if event.kind != .button { cadence.observe(event.time) }
        if unseen.count == Self.unseenLimit {
            // Warm-ups were skipped (a fast device, a busy thread): start the shadow over from the next event.
            unseen.removeAll(keepingCapacity: true)
            shadow = nil
        }
        unseen.append((event, device))
    }

    /// When the input thread should wake for a warm-up (µs, CLOCK_MONOTONIC); nil when none is due.
    var due: UInt64? {
        guard let next = cadence.earliestNextReport, warmedFor != next else { return nil }
        return next > Self.lead ? next - Self.lead : 0
    }

    /// Runs the events seen since the last warm-up through the shadow, encoding into `scratch`
    /// (empty before and after). Once per report: `due` is nil afterwards until the next one.
    /// Returns whether it ran (it is skipped when too late, or with nothing seen since the last).
    @discardableResult
    mutating func warm(now: UInt64, configuration: EngineConfiguration, prediction: EnginePrediction?,
                       scratch: inout OutboundBatch) -> Bool {
        guard let next = cadence.earliestNextReport, warmedFor != next else { return false }
        warmedFor = next
        guard now + Self.margin <= next, scratch.isEmpty, let first = unseen.first else { return false }
        if shadow == nil || shadowEvents >= Self.restartAfter {
            shadow = StrokeEngine(configuration: configuration, prediction: prediction)
            shadowEvents = 0
            for event in Self.entry(to: first.event) { feed(event, device: first.device, into: &scratch) }
        }
        for (event, device) in unseen { feed(event, device: device, into: &scratch) }
        unseen.removeAll(keepingCapacity: true)
        scratch.removeAll()
        warmUps += 1
        return true
    }

    private mutating func feed(_ event: TabletEvent, device: UInt32, into scratch: inout OutboundBatch) {
        output.removeAll(keepingCapacity: true)
        shadow?.handle(event, device: device, into: &output)
        shadowEvents += 1
        for message in output { EngineLines.append(message, to: &scratch) }
    }

    /// What brings a fresh shadow to where `event` finds the real tool: in proximity, and in
    /// contact if the tip is down, so the shadow runs the same path (a stroke's frames) as the real one.
    static func entry(to event: TabletEvent) -> [TabletEvent] {
        if event.kind == .proximity { return [] }
        var entering = event
        entering.kind = .proximity
        entering.state = .proximityIn
        entering.tipDown = false
        entering.button = nil
        guard event.tipDown, event.kind != .tip else { return [entering] }
        var touching = entering
        touching.kind = .tip
        touching.state = .down
        touching.tipDown = true
        return [entering, touching]
    }
}
