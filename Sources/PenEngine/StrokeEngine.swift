import DequeModule
import PenKit

/// The stroke engine's state machine: tablet events (and an optional second
/// pressure stream) in, engine messages out. Synchronous and deterministic:
/// time advances only through event timestamps and `advance(to:)`, so a trace
/// replays faster than real time with the same output every time.
/// penkitd runs it on its input thread, which owns it (MessagePipeline): events,
/// pressure and `advance(to:)` for timeouts all arrive there, one at a time.
///
/// Lifecycle per stroke: `began` at tip down, `frame`s, `ended` at tip up (or
/// cancellation), `update`s for samples that expected one (possibly after
/// `ended`), and one `stroke` once nothing is pending, in the order strokes began.
package struct StrokeEngine {
    package var configuration: EngineConfiguration
    /// Fills each frame's predicted samples; nil: frames carry none.
    package var prediction: EnginePrediction?

    /// The engine's clock: the latest event time or `advance(to:)` seen, µs.
    package private(set) var now: UInt64 = 0
    /// Samples left out of finalized strokes by `maxSamplesPerStroke`.
    package internal(set) var droppedSamples = 0
    /// Pressure reports that matched no sample waiting for one.
    package internal(set) var unmatchedPressureReports = 0

    var nextStrokeID: UInt64 = 1
    var nextSeq: UInt64 = 1
    var nextUpdateIndex: UInt64 = 1
    var tools: [ToolKey: ToolState] = [:]
    /// Tools that once went a whole `tiltTimeout` without tilt: later proximities start without expecting it.
    package internal(set) var toolsWithoutTilt: Set<ToolKey> = [] {
        didSet { toolsWithoutTiltChanges &+= 1 }
    }
    /// Bumped whenever `toolsWithoutTilt` changes (it is written only when it does), so that
    /// penkitd's flight recorder learns of a change by comparing one number per input.
    package private(set) var toolsWithoutTiltChanges: UInt64 = 0
    var strokes: [UInt64: StrokeState] = [:]
    /// Strokes not yet published, in the order they began.
    var publicationOrder: Deque<UInt64> = []
    /// Contact samples waiting for late pressure, in sample order.
    var pendingForce: Deque<PendingForce> = []
    /// Pressure sources attached at run time, by device (`attachPressureSource`).
    var pressureSources: [UInt32: PressureSourceAttachment] = [:]
    var unknownTiltTools = 0

    /// `configuration` must be valid: what a user sets is checked with `validated()` where it is
    /// read (a command's options, the config file), so one out of range here is a programming error.
    package init(configuration: EngineConfiguration = EngineConfiguration(), prediction: EnginePrediction? = nil) {
        do {
            self.configuration = try configuration.validated()
        } catch {
            preconditionFailure("StrokeEngine: \(error)")
        }
        self.prediction = prediction
    }

    /// Strokes begun but not yet published.
    package var unpublishedStrokes: Int { publicationOrder.count }

    // MARK: - Input

    package mutating func handle(_ event: TabletEvent, device: UInt32 = 0, into out: inout [EngineMessage]) {
        var event = event
        // Mapped first, so samples, predictions, azimuth and strokes all live in the mapped space.
        if let mapping = configuration.mappings[device] { mapping.apply(to: &event.axes) }
        advance(to: event.time, into: &out)
        let key = ToolKey(device: device, tool: event.tool)
        if event.kind == .proximity, event.state == .proximityOut {
            proximityOut(key, at: event.time, into: &out)
            publishReady(into: &out)
            return
        }
        if tools[key] == nil {
            proximityIn(key, event: event)
        }
        switch event.kind {
        case .proximity:
            emitSample(event, key: key, contact: false, into: &out)
        case .tip where event.tipDown:
            noteTilt(event, key: key, into: &out)
            if tools[key]?.activeStroke == nil { begin(key, event: event, into: &out) }
            emitSample(event, key: key, contact: true, into: &out)
        case .tip:
            noteTilt(event, key: key, into: &out)
            // The tip-up event's axes are the first hover position (libinput reports
            // pressure 0 there), so they follow the stroke's end as a hover frame.
            if tools[key]?.activeStroke != nil { end(key, at: event.time, cancelled: false, into: &out) }
            if !event.changedAxes.isEmpty { emitSample(event, key: key, contact: false, into: &out) }
        case .axis:
            noteTilt(event, key: key, into: &out)
            emitSample(event, key: key, contact: tools[key]?.activeStroke != nil, into: &out)
        case .button:
            break
        }
        publishReady(into: &out)
    }

    /// A pressure value from the second stream, arriving at `arrival` (µs).
    package mutating func handlePressure(_ report: PressureReport, arrival: UInt64, into out: inout [EngineMessage]) {
        advance(to: arrival, into: &out)
        let tolerance: UInt64
        if let source = pressureSources[report.device] {
            tolerance = source.matchTolerance
        } else if case .separate(let replayTolerance) = configuration.pressureSource {
            tolerance = replayTolerance.wholeMicroseconds
        } else {
            unmatchedPressureReports += 1
            return
        }
        var best: Int?
        var bestDistance = UInt64.max
        for (i, p) in pendingForce.enumerated() where p.device == report.device {
            let d = p.time > report.time ? p.time - report.time : report.time - p.time
            if d <= tolerance && d < bestDistance { best = i; bestDistance = d }
        }
        guard let i = best else {
            unmatchedPressureReports += 1
            return
        }
        let p = pendingForce.remove(at: i)
        let raw = min(max(report.pressure.isFinite ? report.pressure : 0, 0), 1)
        guard let tool = strokes[p.stroke]?.key.tool else { return }
        let feel = configuration.feel(for: tool)
        let force = feel.force(fromRaw: raw)
        guard let key = withStroke(p.stroke, { stroke -> ToolKey in
            stroke.lastMeasuredForce = force
            return stroke.key
        }) else { return }
        tools[key]?.lastMeasuredForce = force
        resolve(stroke: p.stroke, index: p.index, properties: .force, measured: true, into: &out) { s in
            s.force = force
            if feel.shapesPressure { s.rawForce = raw }
        }
        publishReady(into: &out)
    }

    /// Moves the clock to `time` (never back) and lets every expectation whose
    /// deadline has passed expire, then publishes what became final.
    package mutating func advance(to time: UInt64, into out: inout [EngineMessage]) {
        if time > now { now = time }
        // Deadlines differ between devices (each source states its own latency), so every
        // entry is checked; few wait at once (latency / sample interval per device).
        var i = 0
        while i < pendingForce.count {
            let p = pendingForce[i]
            guard p.deadline < now else { i += 1; continue }
            pendingForce.remove(at: i)
            resolve(stroke: p.stroke, index: p.index, properties: .force, measured: false, into: &out) { _ in }
        }
        if unknownTiltTools > 0 {
            for key in tools.keys {
                if case .unknown(let deadline) = tools[key]!.tilt, deadline < now {
                    concludeNoTilt(key, into: &out)
                }
            }
        }
        publishReady(into: &out)
    }

    /// Ends every stroke of `device` as cancelled and forgets its tools (device removed).
    package mutating func removeDevice(_ device: UInt32, at time: UInt64, into out: inout [EngineMessage]) {
        advance(to: time, into: &out)
        for key in tools.keys.sorted(by: Self.keyOrder) where key.device == device {
            proximityOut(key, at: now, into: &out)
        }
        publishReady(into: &out)
    }

    /// Ends every open stroke as cancelled (shutdown, or the end of a recording).
    package mutating func cancelAll(at time: UInt64, into out: inout [EngineMessage]) {
        advance(to: time, into: &out)
        for key in tools.keys.sorted(by: Self.keyOrder) {
            proximityOut(key, at: now, into: &out)
        }
        publishReady(into: &out)
    }

    /// Gives up on every pending update ("no update coming") and publishes
    /// every ended stroke: what a replay does when its input is exhausted.
    package mutating func flush(into out: inout [EngineMessage]) {
        let latest = max(now, pendingForce.map(\.deadline).max() ?? 0)
        let horizon = max(configuration.updateTimeout, configuration.tiltTimeout).wholeMicroseconds
        advance(to: latest.saturatingAdd(horizon).saturatingAdd(1), into: &out)
    }

    static func keyOrder(_ a: ToolKey, _ b: ToolKey) -> Bool {
        (a.device, a.tool.type.rawValue, a.tool.serial, a.tool.id) < (b.device, b.tool.type.rawValue, b.tool.serial, b.tool.id)
    }
}
