/// Ties penkit's frames to an app's own pen events for its own surface, report by report, and
/// from the pairs learns the map from tablet mm to surface units, per device. While this surface
/// has the pen (the app's toolkit says so, and penkit's position maps inside it), it hands the app
/// penkit's samples, predictions, late updates and finalized strokes in surface units; while the
/// pen is over another window it hands over nothing.
///
/// Both streams come from the same kernel reports: the app's event for a report carries a time
/// (libinput's, floored to ms under tablet-v2, or the browser's own clock) some fixed offset after
/// the frame's, plus flooring and delivery delay. The offset is learned: first by searching which
/// frame the first app events belong to (the shift whose pairs an affine map fits best, and only
/// when every other shift fits clearly worse), then as the smallest recent lag. The map is a
/// least-squares affine fit over the newest pairs; two app events in a row off the map by one
/// common offset are a moved window, and only the offset is refitted (docs/apps.md).
///
/// A value type fed in arrival order; it reads no clock, so the same input gives the same output
/// in Swift, JavaScript and Python (Tests/Fixtures/surface-pairing/vectors.json).
public struct SurfacePairing: Sendable {
    public var configuration: SurfacePairingConfiguration
    /// The surface's size in its own units, when the app knows it: a frame that maps outside is
    /// not delivered, even before the toolkit says the pen left.
    public var surfaceWidth: Double?
    public var surfaceHeight: Double?

    /// App time − penkit time (ms), the smallest lag of recent pairs; nil until learned.
    public internal(set) var clockOffset: Double?
    /// App events handled so far (proximity-outs included).
    public private(set) var appEvents = 0

    var devices: [UInt32: DeviceLink] = [:]
    var sources: [String: SourcePen] = [:]
    /// App events waiting for their frame (or for the offset search).
    var pending: [AppPenEvent] = []
    var lags: [Double] = []
    var misses = 0
    /// Searches in a row that found no offset, and app events since the last one: after a failure
    /// the next search waits for `searchEvents` more app events. A search tries every remembered
    /// frame against every waiting event; run on every message while the pen rested or tapped
    /// (never enough spread to decide), it cost the Python client 135 ms per report and left the
    /// GTK example's window seconds behind its pen (docs/apps.md).
    var failedSearches = 0
    var eventsSinceSearch = 0
    /// `began` messages held until one of the stroke's frames is delivered here.
    var begans: [UInt64: StrokeBegan] = [:]
    /// Strokes that began on this surface: their updates, end and finalized stroke come here.
    var owned: Set<UInt64> = []
    /// Finalized strokes waiting for the app's events to reach their last point: penkit finalizes
    /// a stroke before the compositor's events for its last reports arrive, and those say whether
    /// the stroke was drawn here and whether the window moved meanwhile.
    var heldStrokes: [FinalizedStroke] = []
    /// `ended` messages waiting for the app's own pen to catch up with their stroke's end
    /// (`releaseEnded`), in penkit's order.
    var heldEnded: [StrokeEnded] = []
    /// Updates of strokes none of whose frames was delivered here yet: delivered right after the
    /// stroke's first frame here, dropped when it is settled without one.
    var waitingUpdates: [SampleUpdate] = []

    public init(configuration: SurfacePairingConfiguration = SurfacePairingConfiguration(),
                surfaceWidth: Double? = nil, surfaceHeight: Double? = nil) {
        self.configuration = configuration
        self.surfaceWidth = surfaceWidth
        self.surfaceHeight = surfaceHeight
    }

    /// The current map of `device`, ready or not; nil before any fit.
    public func estimate(device: UInt32) -> SurfaceMapEstimate? {
        guard let link = devices[device], let map = link.map else { return nil }
        // Suspects held: the app's last positions are off this map, so it delivers nothing now.
        let ready = link.ready && link.suspects.isEmpty
        return SurfaceMapEstimate(device: device, transform: map, ready: ready, change: ready ? .ready : .lost,
                                  pairs: link.pairs.count, rms: link.rms, clockOffset: clockOffset ?? 0, appEvents: appEvents)
    }

    /// The pairs `device`'s map stands on, oldest first (since its last move or reset).
    public func pairs(device: UInt32) -> [SurfacePair] { devices[device]?.pairs ?? [] }

    /// The devices seen, in id order.
    public var deviceIDs: [UInt32] { devices.keys.sorted() }

    // MARK: - Input

    /// One of the app's own pen events, in the order the app received them.
    public mutating func handle(_ event: AppPenEvent, into out: inout [SurfaceDelivery]) {
        appEvents += 1
        var pen = sources[event.source] ?? SourcePen()
        switch event.proximity {
        case .leaving:
            // The pen was here until this event: what can be paired is, and the frames before its
            // time are delivered; then the strokes waiting for it are settled.
            resolve(final: false, into: &out)
            if let pen = sources[event.source], pen.inside, pen.confirmed, let id = pen.device, var link = devices[id],
               let offset = clockOffset {
                catchUp(event.source, device: id, link: &link, until: event.time - offset, into: &out)
                devices[id] = link
            }
            sources[event.source, default: SourcePen()].inside = false
            sources[event.source]?.confirmed = false
            releaseStrokes(force: true, into: &out)
            return
        case .entering:
            pen.enter(at: event.time)
            failedSearches = 0   // a new proximity: the next search need not wait
        case .moving:
            if !pen.inside {   // a toolkit that sends no proximity
                pen.enter(at: event.time)
                failedSearches = 0
            }
        }
        pen.lastTime = event.time
        sources[event.source] = pen
        pending.append(event)
        eventsSinceSearch += 1
        resolve(final: false, into: &out)
    }

    /// One of penkit's messages. A frame is paired at its `delivered` position (mm) when penkit's
    /// virtual tablet wrote one, which is what the app's events then carry (`Frame.delivered`, or
    /// `delivered` given here for a frame read some other way), else at its sample's.
    public mutating func handle(_ message: EngineMessage, delivered: (x: Double, y: Double)? = nil,
                                into out: inout [SurfaceDelivery]) {
        switch message {
        case .frame(let frame):
            var link = devices[frame.device] ?? DeviceLink()
            let pairedAt = delivered ?? frame.delivered.map { ($0.x, $0.y) } ?? (frame.sample.x, frame.sample.y)
            link.remember(frame, pairedAt: pairedAt, limit: configuration.frameMemory)
            devices[frame.device] = link
            resolve(final: false, into: &out)
            if frame.sample.time > devices[frame.device]!.lastDelivered { deliverIfHere(frame, into: &out) }
        case .began(let began):
            begans[began.stroke] = began
        case .update(let update):
            let here = update.stroke.map { owned.contains($0) } ?? hasPen(device: update.device, at: Double(update.sample.time) / 1000)
            if here, let map = devices[update.device]?.deliveryMap {
                var mapped = update
                mapped.sample = SurfaceMapping.sample(update.sample, map)
                out.append(.update(mapped))
            } else if update.stroke != nil {
                // Its stroke may still come here: the map is not ready yet, or the app's own pen
                // has not reached the stroke.
                waitingUpdates.append(update)
                if waitingUpdates.count > configuration.updateMemory { waitingUpdates.removeFirst() }
            }
        case .ended(let ended):
            // Held until the app's own pen has caught up with the stroke's end: penkit's feed may
            // run ahead of the app's pen events.
            begans[ended.stroke] = nil
            heldEnded.append(ended)
            releaseEnded(force: false, into: &out)
        case .stroke(let finalized):
            begans[finalized.stroke.id] = nil
            // Held even when none of its frames came here yet: the app's events, which decide
            // that, may run behind penkit's.
            heldStrokes.append(finalized)
            releaseStrokes(force: false, into: &out)
        }
    }

    /// The end of the input (a file read to its end): app events still waiting pair with what came.
    public mutating func finish(into out: inout [SurfaceDelivery]) {
        resolve(final: true, into: &out)
        releaseStrokes(force: true, into: &out)
    }

    /// Settles the held strokes whose device has pairs up to their last point (all, with `force`:
    /// the pen left, or the input ended), in the order penkit finalized them: delivered when one
    /// of their frames was delivered here, dropped when none was.
    mutating func releaseStrokes(force: Bool, into out: inout [SurfaceDelivery]) {
        releaseEnded(force: force, into: &out)
        while let first = heldStrokes.first {
            guard let link = devices[first.device] else { heldStrokes.removeFirst(); continue }
            let end = first.stroke.points.last?.time ?? 0
            // Not before the map is ready: the frames paired so far are delivered when it gets
            // ready, and a stroke settled before that would be dropped though its frames then come.
            guard force || (link.ready && (link.pairs.last?.frameTime ?? 0) >= end) else { return }
            heldStrokes.removeFirst()
            let id = first.stroke.id
            if heldEnded.contains(where: { $0.stroke == id }) { releaseEnded(force: false, through: id, into: &out) }
            waitingUpdates.removeAll { $0.stroke == id }
            guard owned.remove(id) != nil else { continue }
            var mapped = first
            mapped.stroke = SurfaceMapping.stroke(first.stroke) { link.map(at: $0) }
            out.append(.stroke(mapped))
        }
    }

    /// Hands over the held `ended`s, in penkit's order, whose app pen has been paired up to their
    /// time (or a frame at or past it was delivered), so that each follows every frame of its
    /// stroke that comes here; with `force` (the pen left, the input ended), or once penkit's
    /// frames are `endedHold` ms past one (the app's pen is not catching up), as they are; and up
    /// to and including `through`'s own whatever their state, when that stroke's `stroke` goes out.
    /// Only those of strokes delivered here reach the app.
    mutating func releaseEnded(force: Bool, through stroke: UInt64? = nil, into out: inout [SurfaceDelivery]) {
        var through = stroke.flatMap { id in heldEnded.firstIndex { $0.stroke == id } } ?? -1
        while let first = heldEnded.first {
            let link = devices[first.device]
            let newest = link?.frames.last?.frame.sample.time ?? 0
            // Only with the map ready: frames paired before it are delivered when it gets ready.
            let caughtUp = link.map { $0.ready && (($0.pairs.last?.frameTime ?? 0) >= first.time || $0.lastDelivered >= first.time) } ?? false
            let givenUp = newest > first.time && Double(newest - first.time) > configuration.endedHold * 1000
            guard force || link == nil || caughtUp || through >= 0 || givenUp else { return }
            heldEnded.removeFirst()
            through -= 1
            if owned.contains(first.stroke) { out.append(.ended(first)) }
        }
    }

    /// Whether a confirmed app source has `device`'s pen over this surface at `time` (ms, penkit's clock).
    func hasPen(device: UInt32, at time: Double) -> Bool {
        sources.values.contains {
            $0.inside && $0.confirmed && $0.device == device && time <= $0.lastTime - (clockOffset ?? 0) + configuration.lead
        }
    }
}

/// What is known of one app source (one of the app's pens).
struct SourcePen: Sendable {
    var inside = false
    /// The penkit device its events pair with, learned after each proximity-in.
    var device: UInt32?
    /// Since the last proximity-in, a pair of it fitted the ready map: its device's frames are for here.
    var confirmed = false
    /// App time of the last proximity-in.
    var enteredAt = 0.0
    /// App time of its newest event over this surface.
    var lastTime = 0.0

    mutating func enter(at time: Double) {
        inside = true
        confirmed = false
        device = nil
        enteredAt = time
    }
}
