@testable import PenEngine
import PenEvaluation
import PenKit
import Testing

/// Hand-built event sequences for the cases the traces do not contain.
private let pen = ToolIdentity(type: .pen, serial: 7, id: 0x802)
private let penAxes: TabletAxisSet = [.x, .y, .pressure, .distance, .tiltX, .tiltY]

private func event(_ kind: TabletEvent.Kind, _ ms: UInt64, state: TabletEvent.State? = nil, tip: Bool,
                   x: Double = 10, pressure: Double = 0, tilt: (Double, Double) = (0, 0),
                   tool: ToolIdentity = pen, toolAxes: TabletAxisSet = penAxes,
                   changed: TabletAxisSet = [.x, .y]) -> TabletEvent {
    var axes = TabletAxes()
    axes.x = x
    axes.y = 20
    axes.pressure = pressure
    axes.distance = tip ? 0 : 0.5
    axes.tiltX = tilt.0
    axes.tiltY = tilt.1
    return TabletEvent(kind: kind, time: ms * 1000, tool: tool, state: state, tipDown: tip, axes: axes,
                       toolAxes: toolAxes, changedAxes: changed)
}

/// prox-in, tip down, n contact frames, tip up, prox-out; tilt changes at every frame.
private func strokeEvents(start: UInt64, frames: Int, tool: ToolIdentity = pen, toolAxes: TabletAxisSet = penAxes,
                          proximityOut: Bool = true) -> [TabletEvent] {
    var events = [event(.proximity, start, state: .proximityIn, tip: false, tool: tool, toolAxes: toolAxes, changed: toolAxes)]
    events.append(event(.tip, start + 5, state: .down, tip: true, pressure: 0.3, tilt: (10, 5), tool: tool,
                        toolAxes: toolAxes, changed: [.x, .y, .pressure, .tiltX]))
    for i in 1...frames {
        events.append(event(.axis, start + 5 + UInt64(i) * 5, tip: true, x: 10 + Double(i), pressure: 0.3 + Double(i) / 100,
                            tilt: (10 + Double(i), 5), tool: tool, toolAxes: toolAxes, changed: [.x, .pressure, .tiltX]))
    }
    events.append(event(.tip, start + 10 + UInt64(frames) * 5, state: .up, tip: false, tool: tool, toolAxes: toolAxes, changed: [.pressure]))
    if proximityOut {
        events.append(event(.proximity, start + 20 + UInt64(frames) * 5, state: .proximityOut, tip: false, tool: tool,
                            toolAxes: toolAxes, changed: []))
    }
    return events
}

private func run(_ events: [TabletEvent], engine: inout StrokeEngine) -> [EngineMessage] {
    var out: [EngineMessage] = []
    for e in events { engine.handle(e, into: &out) }
    return out
}

@Test func w3cConversionMatchesThePointerEventsTestVectors() {
    // web-platform-tests pointerevent_tiltX_tiltY_to_azimuth_altitude.html
    let vectors: [(Double, Double, Double, Double)] = [
        (0, 0, 0, .pi / 2), (0, 90, .pi / 2, 0), (0, -90, 3 * .pi / 2, 0), (90, 0, 0, 0), (90, 90, 0, 0),
        (90, -90, 0, 0), (-90, 0, .pi, 0), (-90, 90, 0, 0), (-90, -90, 0, 0), (0, 45, .pi / 2, .pi / 4),
        (0, -45, 3 * .pi / 2, .pi / 4), (45, 0, 0, .pi / 4), (-45, 0, .pi, .pi / 4),
    ]
    for (tx, ty, azimuth, altitude) in vectors {
        let r = TiltConversion.azimuthAltitude(tiltX: tx, tiltY: ty)
        #expect(abs(r.azimuth - azimuth) < 1e-12 && abs(r.altitude - altitude) < 1e-12, "tilt \(tx), \(ty)")
        // The predictors' samples and `penkit bench predict` convert tilt the same way.
        let p = PredictionSample(time: 0, x: 0, y: 0, pressure: 0, tiltX: tx, tiltY: ty, touching: true)
        #expect(abs(p.azimuth - azimuth) < 1e-12 && abs(p.altitude - altitude) < 1e-12, "prediction tilt \(tx), \(ty)")
    }
    // General case: 45°/45° leans along the diagonal, at atan(1/√2) from the surface.
    let r = TiltConversion.azimuthAltitude(tiltX: 45, tiltY: 45)
    #expect(abs(r.azimuth - .pi / 4) < 1e-12 && abs(r.altitude - 0.6154797086703874) < 1e-12)
    let q = TiltConversion.azimuthAltitude(tiltX: -30, tiltY: -30)
    #expect(abs(q.azimuth - 5 * .pi / 4) < 1e-12)
}

@Test func lifecycleOfOneStroke() {
    var engine = StrokeEngine()
    let out = run(strokeEvents(start: 100, frames: 3), engine: &engine)
    let kinds = out.map(\.typeName)
    #expect(kinds.first == "frame")  // hover at proximity-in
    let began = kinds.firstIndex(of: "began")!, ended = kinds.firstIndex(of: "ended")!, stroke = kinds.firstIndex(of: "stroke")!
    #expect(began < ended && ended < stroke)
    #expect(out[(began + 1)..<ended].allSatisfy { if case .frame(let f) = $0 { f.stroke == 1 } else { $0.typeName == "update" } })
    #expect(out.finalized.count == 1)
    let s = out.finalized[0]
    #expect(s.seq == 1 && s.stroke.points.count == 4 && !s.stroke.cancelled)
    let forces: [Double] = [0.3] + (1...3).map { (i: Int) -> Double in 0.3 + Double(i) / 100 }
    #expect(s.stroke.points.map(\.force) == forces)
}

@Test func tiltBackfillWhenTheFirstFramesLackIt() {
    // Tilt stays at the never-sent value (libinput: −64°/−64°) for three frames, then changes.
    var engine = StrokeEngine()
    var events = [event(.proximity, 0, state: .proximityIn, tip: false, tilt: (-64, -64), changed: penAxes)]
    events.append(event(.tip, 5, state: .down, tip: true, pressure: 0.3, tilt: (-64, -64), changed: [.x, .pressure]))
    events.append(event(.axis, 10, tip: true, x: 11, pressure: 0.3, tilt: (-64, -64)))
    events.append(event(.axis, 15, tip: true, x: 12, pressure: 0.3, tilt: (-20, 20), changed: [.x, .tiltX, .tiltY]))
    events.append(event(.axis, 20, tip: true, x: 13, pressure: 0.3, tilt: (-21, 20), changed: [.x, .tiltX]))
    events.append(event(.tip, 25, state: .up, tip: false, changed: [.pressure]))
    let out = run(events, engine: &engine)
    let frames = out.frames
    #expect(frames.prefix(3).allSatisfy { $0.sample.expectingUpdates == [.azimuth, .altitude] && $0.sample.altitude == .pi / 2 })
    let updates = out.updates
    let expected = TiltConversion.azimuthAltitude(tiltX: -20, tiltY: 20)
    #expect(updates.count == 3, "the hover sample and two contact samples")
    #expect(updates.map(\.sample.time) == [0, 5_000, 10_000])
    #expect(Set(updates.map(\.updateIndex)) == Set(frames.prefix(3).compactMap(\.sample.updateIndex)))
    for u in updates {
        #expect(u.updated == [.azimuth, .altitude] && u.expired.isEmpty)
        #expect(u.sample.azimuth == expected.azimuth && u.sample.altitude == expected.altitude)
        #expect(u.sample.estimated.contains(.azimuth), "carried over from a later frame: still an estimate")
    }
    #expect(updates[0].stroke == nil && updates[1].stroke == 1)
    let points = out.finalized[0].stroke.points
    #expect(points.map(\.altitude) == [expected.altitude, expected.altitude, expected.altitude,
                                        TiltConversion.azimuthAltitude(tiltX: -21, tiltY: 20).altitude])
    #expect(points[1].estimated.contains(.azimuth) && !points[2].estimated.contains(.azimuth))
}

@Test func deviceWithoutTiltIsUprightEstimatedAndExpectsNothing() {
    var engine = StrokeEngine()
    let out = run(strokeEvents(start: 0, frames: 2, toolAxes: [.x, .y, .pressure]), engine: &engine)
    for f in out.frames {
        #expect(f.sample.altitude == .pi / 2 && f.sample.azimuth == 0)
        #expect(f.sample.estimated.isSuperset(of: [.azimuth, .altitude, .roll]) && f.sample.expectingUpdates.isEmpty)
        #expect(f.sample.updateIndex == nil)
    }
    #expect(out.updates.isEmpty)
    #expect(out.finalized.count == 1)
}

@Test func deviceWithoutPressureDrawsAtTheDefaultForceMarkedEstimated() {
    var engine = StrokeEngine()
    let out = run(strokeEvents(start: 0, frames: 2, toolAxes: [.x, .y]), engine: &engine)
    let points = out.finalized[0].stroke.points
    #expect(points.allSatisfy { $0.force == 0.5 && $0.estimated.contains(.force) })
}

@Test func proximityLossMidStrokeCancels() {
    var engine = StrokeEngine()
    var events = strokeEvents(start: 0, frames: 3)
    events.removeAll { $0.kind == .tip && $0.state == .up }
    let out = run(events, engine: &engine)
    let ended = out.compactMap { if case .ended(let e) = $0 { e } else { nil } }
    #expect(ended.count == 1 && ended[0].cancelled)
    #expect(out.finalized.count == 1 && out.finalized[0].stroke.cancelled)
    #expect(out.finalized[0].stroke.points.count == 4)
}

@Test func deviceRemovalMidStrokeCancelsOnlyThatDevice() {
    var engine = StrokeEngine()
    var out: [EngineMessage] = []
    let a = strokeEvents(start: 0, frames: 4, proximityOut: false).prefix(4)
    for e in a { engine.handle(e, device: 1, into: &out) }
    for e in strokeEvents(start: 0, frames: 2, proximityOut: false).prefix(3) { engine.handle(e, device: 2, into: &out) }
    engine.removeDevice(1, at: 40_000, into: &out)
    #expect(out.finalized.count == 1 && out.finalized[0].stroke.cancelled && out.finalized[0].stroke.id == 1)
    #expect(engine.unpublishedStrokes == 1, "device 2's stroke is still open")
}

@Test func latePressureUpdatesAfterPenUpAndTimeoutSaysNoUpdateComing() {
    var config = EngineConfiguration()
    config.pressureSource = .separate(matchTolerance: .zero)
    config.updateTimeout = .milliseconds(50)
    var engine = StrokeEngine(configuration: config)
    var out: [EngineMessage] = []
    for e in strokeEvents(start: 0, frames: 2) { engine.handle(e, into: &out) }
    // Samples at 5, 10, 15 ms; pen up at 20 ms. Only the first two reports ever arrive, after pen up.
    let ended = out.firstIndex { $0.typeName == "ended" }!
    if case .ended(let e) = out[ended] { #expect(e.pendingUpdates == 3) }
    engine.handlePressure(PressureReport(time: 5_000, pressure: 0.25), arrival: 31_000, into: &out)
    engine.handlePressure(PressureReport(time: 10_000, pressure: 0.5), arrival: 32_000, into: &out)
    engine.handlePressure(PressureReport(time: 12_000, pressure: 0.9), arrival: 33_000, into: &out)  // matches nothing
    #expect(engine.unmatchedPressureReports == 1)
    #expect(out.finalized.isEmpty, "the 15 ms sample still waits")
    engine.advance(to: 65_000, into: &out)
    #expect(out.finalized.isEmpty, "deadline 15 + 50 ms not yet passed")
    engine.advance(to: 65_001, into: &out)
    let updates = out.updates.filter { !$0.updated.union($0.expired).isDisjoint(with: .force) }
    #expect(updates.map(\.updated) == [[.force], [.force], []])
    #expect(updates.last!.expired == [.force] && updates.last!.sample.estimated.contains(.force))
    let points = out.finalized[0].stroke.points
    #expect(points.map(\.force) == [0.25, 0.5, 0.5], "the unmeasured sample keeps its estimate: the last real force")
    #expect(points.map { $0.estimated.contains(.force) } == [false, false, true])
}

@Test func strokeThatFinalizesLateStillPublishesFirst() {
    // Stroke 1's pressure is slow; stroke 2 begins, ends and gets its pressure before stroke 1 does.
    var config = EngineConfiguration()
    config.pressureSource = .separate(matchTolerance: .zero)
    var engine = StrokeEngine(configuration: config)
    var out: [EngineMessage] = []
    for e in strokeEvents(start: 0, frames: 1) { engine.handle(e, into: &out) }        // samples 5, 10 ms
    for e in strokeEvents(start: 40, frames: 1) { engine.handle(e, into: &out) }       // samples 45, 50 ms
    engine.handlePressure(PressureReport(time: 45_000, pressure: 0.4), arrival: 70_000, into: &out)
    engine.handlePressure(PressureReport(time: 50_000, pressure: 0.4), arrival: 71_000, into: &out)
    #expect(out.finalized.isEmpty, "stroke 2 is complete but stroke 1 began first")
    engine.handlePressure(PressureReport(time: 10_000, pressure: 0.2), arrival: 80_000, into: &out)
    engine.handlePressure(PressureReport(time: 5_000, pressure: 0.1), arrival: 81_000, into: &out)
    let finalized = out.finalized
    #expect(finalized.map(\.seq) == [1, 2] && finalized.map(\.stroke.id) == [1, 2])
    #expect(finalized[0].stroke.points.map(\.force) == [0.1, 0.2])
    let secondBegan = out.firstIndex { if case .began(let b) = $0 { b.stroke == 2 } else { false } }!
    let firstPublished = out.firstIndex { $0.typeName == "stroke" }!
    #expect(secondBegan < firstPublished)
}

/// The daemon's input thread drives the engine so: pressure reports stamped with their arrival,
/// `advance(to:)` for time passing without input (MessagePipeline, LiveSource's tick).
@Test func timeoutsFireWhenTimeAdvances() {
    var config = EngineConfiguration()
    config.pressureSource = .separate(matchTolerance: .milliseconds(1))
    config.updateTimeout = .milliseconds(30)
    var engine = StrokeEngine(configuration: config)
    var all: [EngineMessage] = []
    for e in strokeEvents(start: 0, frames: 1) { engine.handle(e, into: &all) }
    engine.handlePressure(PressureReport(time: 5_400, pressure: 0.7), arrival: 21_000, into: &all)  // within 1 ms of the 5 ms sample
    let force = all.updates.filter { $0.updated.contains(.force) }
    #expect(force.count == 1 && force[0].sample.force == 0.7 && force[0].sample.time == 5_000)
    var early: [EngineMessage] = []
    engine.advance(to: 39_000, into: &early)
    #expect(early.isEmpty)
    var late: [EngineMessage] = []
    engine.advance(to: 41_000, into: &late)
    #expect(late.updates.count == 1 && late.updates[0].expired == [.force])
    #expect(late.finalized.count == 1)
}

/// penkitd's stop (MessagePipeline's `.shutdown` input): every open stroke ends cancelled.
@Test func shutdownCancelsOpenStrokes() {
    var engine = StrokeEngine()
    var ignored: [EngineMessage] = []
    for e in strokeEvents(start: 0, frames: 2, proximityOut: false).prefix(3) { engine.handle(e, into: &ignored) }
    var out: [EngineMessage] = []
    engine.cancelAll(at: 100_000, into: &out)
    engine.flush(into: &out)
    #expect(out.finalized.count == 1 && out.finalized[0].stroke.cancelled)
}

@Test func predictorSeamFillsFramesFromEachFramesOwnSample() throws {
    // No hover predictions (scale 0), so contact frames alone carry them; the horizon is
    // shorter than the shortest report interval the stage believes (1 ms): one, at the horizon.
    // The engine's stage and a stage of its own fed the same samples (hover ones too: the
    // predictor keeps motion across contact) predict the same for every frame.
    let configuration = try PredictionConfiguration(horizon: .microseconds(500), hoverHorizonScale: 0, dampingMinCutoffHz: 0,
                                                    correctionMemory: .zero)
    var engine = StrokeEngine(prediction: EnginePrediction(PenkitPredictor(), configuration: configuration))
    let out = run(strokeEvents(start: 0, frames: 2), engine: &engine)
    for f in out.frames {
        if f.stroke == nil { #expect(f.predicted.isEmpty) } else { #expect(f.predicted.count == 1) }
    }
    let contact = out.frames.filter { $0.stroke != nil }
    #expect(contact.count == 3)
    #expect(contact.allSatisfy { $0.predicted[0].time == $0.sample.time + 500 })
    var own = EnginePrediction(PenkitPredictor(), configuration: configuration)
    var expected: [[Sample]] = []
    for f in out.frames { expected.append(own.predict(after: f.sample, touching: f.stroke != nil)) }
    #expect(out.frames.map(\.predicted) == expected, "each frame's predictions come from its own sample, after all before it")
}

@Test func strokeSampleCapKeepsMemoryBounded() {
    var config = EngineConfiguration()
    config.maxSamplesPerStroke = 3
    var engine = StrokeEngine(configuration: config)
    let out = run(strokeEvents(start: 0, frames: 5), engine: &engine)
    #expect(out.finalized[0].stroke.points.count == 3 && engine.droppedSamples == 3)
    #expect(out.frames.filter { $0.stroke != nil }.count == 6, "frames still go out live")
}

@Test func latePressureParsing() {
    #expect(LatePressure(parsing: "20±10") == LatePressure(latency: 20_000, jitter: 10_000))
    #expect(LatePressure(parsing: "20+-10") == LatePressure(latency: 20_000, jitter: 10_000))
    #expect(LatePressure(parsing: "2.5") == LatePressure(latency: 2_500))
    #expect(LatePressure(parsing: "x") == nil && LatePressure(parsing: "-5") == nil && LatePressure(parsing: "1±2±3") == nil)
    var d = LatePressure(latency: 20_000, jitter: 10_000).delays()
    let values = (0..<1000).map { _ in d.next() }
    #expect(values.allSatisfy { (10_000...30_000).contains($0) })
    #expect(Set(values).count > 500)
    var again = LatePressure(latency: 20_000, jitter: 10_000).delays()
    #expect((0..<1000).map { _ in again.next() } == values)
}
