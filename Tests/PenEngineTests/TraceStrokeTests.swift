import PenEngine
import PenEvaluation
import PenKit
import Testing

/// The engine on every shared trace, checked against libinput's events.
@Suite struct TraceStrokeTests {
    @Test(arguments: Traces.all)
    func finalizedStrokesMatchTipPairsOneToOne(trace: String) throws {
        let messages = EngineReplay().messages(try Traces.inputs(trace))
        let (source, reference) = try Traces.reference(trace)
        let pairs = reference.tipPairs
        let strokes = messages.finalized
        let completed = strokes.filter { !$0.stroke.cancelled }
        #expect(completed.count == pairs.count, "\(trace): \(completed.count) strokes vs \(pairs.count) tip pairs (\(source))")
        for (stroke, pair) in zip(completed, pairs) {
            let s = stroke.stroke
            #expect(s.tool == pair.tool)
            #expect(s.points.first?.time == pair.down, "stroke starts at tip down")
            #expect((s.points.last?.time ?? 0) < pair.up, "no contact point at or after tip up")
            #expect(s.points.allSatisfy { $0.time >= pair.down && $0.time < pair.up })
        }
        // Published once each, numbered 1…n, in the order the strokes began.
        #expect(strokes.map(\.seq) == Array(1...UInt64(max(strokes.count, 1))).prefix(strokes.count).map { $0 })
        let began = messages.compactMap { if case .began(let b) = $0 { b.stroke } else { nil } }
        #expect(strokes.map(\.stroke.id) == began)
    }

    @Test(arguments: Traces.all)
    func anglesAreTheW3CConversionOfLibinputTilt(trace: String) throws {
        let messages = EngineReplay().messages(try Traces.inputs(trace))
        let byTime = try Traces.reference(trace).events.byTimeBeforeProximityOut
        var checked = 0
        for stroke in messages.finalized.map(\.stroke) {
          for point in stroke.points {
            guard let ref = byTime[ToolTime(stroke.tool, point.time)] else {
                Issue.record("\(trace): no libinput event at \(point.time)")
                continue
            }
            if point.estimated.contains(.azimuth) { continue }
            let tiltX = try #require(ref.tiltX), tiltY = try #require(ref.tiltY)
            let expected = TiltConversion.azimuthAltitude(tiltX: tiltX, tiltY: tiltY)
            #expect(abs(point.azimuth - expected.azimuth) < 1e-9 && abs(point.altitude - expected.altitude) < 1e-9)
            checked += 1
          }
        }
        for frame in messages.frames where !frame.sample.estimated.contains(.azimuth) {
            let ref = try #require(byTime[ToolTime(frame.tool, frame.sample.time)])
            let expected = TiltConversion.azimuthAltitude(tiltX: try #require(ref.tiltX), tiltY: try #require(ref.tiltY))
            #expect(abs(frame.sample.altitude - expected.altitude) < 1e-9)
        }
        if trace.hasPrefix("wacom-intuos4-6x9-stylus-drag") { #expect(checked > 250) }
    }

    /// DTH2242 declares tilt but never sends it; libinput reports −64°/−64°.
    @Test func declaredButMissingTiltIsNeverPassedOffAsMeasured() throws {
        let messages = EngineReplay().messages(try Traces.inputs("wacom-dth2242-pen.evemu"))
        let bogus = TiltConversion.azimuthAltitude(tiltX: -64, tiltY: -64)
        #expect(abs(bogus.altitude * 180 / .pi - 19) < 0.1, "what −64/−64 would claim: 19°")
        #expect(!messages.frames.isEmpty)
        for f in messages.frames {
            #expect(f.sample.estimated.isSuperset(of: [.azimuth, .altitude]))
            #expect(f.sample.altitude == Double.pi / 2)
        }
        let points = messages.finalized.flatMap(\.stroke.points)
        #expect(!points.isEmpty)
        #expect(points.allSatisfy { $0.estimated.isSuperset(of: [.azimuth, .altitude]) && $0.altitude == Double.pi / 2 })
        // Expected at first, then "no update coming", and not expected again for this tool.
        let expired = messages.updates.filter { $0.expired.contains(.altitude) }
        #expect(!expired.isEmpty)
        #expect(messages.updates.allSatisfy { $0.updated.isEmpty })
        let lastExpiry = try #require(expired.map(\.sample.time).max())
        #expect(messages.frames.filter { $0.sample.time > lastExpiry }.allSatisfy { $0.sample.expectingUpdates.isEmpty })
    }

    @Test(arguments: Traces.all)
    func latePressureEndsEqualToInBandPressure(trace: String) throws {
        let late = try #require(LatePressure(parsing: "20±10"))
        let messages = EngineReplay(latePressure: late).messages(try Traces.inputs(trace))
        let byTime = try Traces.reference(trace).events.byTime
        for frame in messages.frames where frame.stroke != nil {
            #expect(frame.sample.estimated.contains(.force) && frame.sample.expectingUpdates.contains(.force))
            #expect(frame.sample.updateIndex != nil)
        }
        // Against libinput's pressure (a fixture from real libinput may differ from the
        // decoder's arithmetic in the last bit) …
        for stroke in messages.finalized.map(\.stroke) {
            for point in stroke.points {
                let ref = try #require(byTime[ToolTime(stroke.tool, point.time)])
                #expect(abs(point.force - (ref.pressure ?? -1)) < 1e-12, "\(trace) at \(point.time)")
                #expect(!point.estimated.contains(.force))
            }
        }
        #expect(messages.updates.allSatisfy { $0.expired.isEmpty || !$0.expired.contains(.force) })
        // … and bit for bit against the in-band pressure of the very events the engine was fed.
        let inBand = EngineReplay().messages(try Traces.inputs(trace)).finalized
        #expect(inBand.map(\.stroke.points.count) == messages.finalized.map(\.stroke.points.count))
        #expect(inBand.flatMap { $0.stroke.points.map(\.force) } == messages.finalized.flatMap { $0.stroke.points.map(\.force) })
    }

    @Test func tiltBackfillOnARealTrace() throws {
        // The Intuos4 drag's proximity-in carries a real tilt: nothing waits for a later one.
        let drag = EngineReplay().messages(try Traces.inputs("wacom-intuos4-6x9-stylus-drag.evemu"))
        #expect(!drag.updates.contains { $0.updated.contains(.azimuth) })
        // Three Cintiq proximities begin at libinput's never-sent −64°/−64°: their first samples
        // wait, and get the tool's first real tilt.
        let trace = "wacom-cintiq-22hdt-pen.evemu"
        let messages = EngineReplay().messages(try Traces.inputs(trace))
        let reference = try Traces.reference(trace).events
        let backfills = messages.updates.filter { $0.updated.contains(.azimuth) }
        #expect(!backfills.isEmpty)
        for u in backfills {
            let entry = try #require(reference.last { $0.type == "proximity" && $0.state == "in" && $0.time <= u.sample.time })
            #expect(entry.tiltX == -64 && entry.tiltY == -64, "backfilled at \(u.sample.time)")
            let firstChange = try #require(reference.first {
                $0.tool == entry.tool && $0.time > entry.time && ($0.tiltX != entry.tiltX || $0.tiltY != entry.tiltY)
            })
            #expect(u.sample.time < firstChange.time)
            let expected = TiltConversion.azimuthAltitude(tiltX: firstChange.tiltX!, tiltY: firstChange.tiltY!)
            // libinput and the decoder may differ in the last bit
            #expect(abs(u.sample.azimuth - expected.azimuth) < 1e-9 && abs(u.sample.altitude - expected.altitude) < 1e-9)
            #expect(u.sample.expectingUpdates.isEmpty && u.sample.estimated.contains(.azimuth))
        }
    }

    @Test(arguments: Traces.all)
    func hoverFramesCarryDistance(trace: String) throws {
        let messages = EngineReplay().messages(try Traces.inputs(trace))
        let byTime = try Traces.reference(trace).events.byTime
        for f in messages.frames where f.stroke == nil {
            let ref = try #require(byTime[ToolTime(f.tool, f.sample.time)])
            #expect(abs(f.sample.distance - (ref.distance ?? 0)) < 1e-12, "libinput and the decoder may differ in the last bit")
            #expect(f.sample.force == 0)
        }
    }

    /// Hover frames carry predictions too, at half the horizon (docs/prediction.md); contact
    /// frames (of a drag) look further ahead, and nothing is predicted into the past.
    @Test func hoverFramesArePredictedAtHalfTheHorizon() throws {
        let horizon: UInt64 = 16_000
        let replay = EngineReplay(prediction: EnginePrediction(PenkitPredictor(), configuration: try PredictionConfiguration(horizon: .microseconds(horizon), inputSmoothing: 4)))
        let frames = replay.messages(try Traces.inputs("wacom-intuos4-6x9-stylus-hover.evemu")).frames
        let hover = frames.filter { $0.stroke == nil }
        let predictedHover = hover.filter { !$0.predicted.isEmpty }
        #expect(hover.count > 100)
        #expect(predictedHover.count * 2 > hover.count, "most hover frames are predicted once a few samples are in")
        for f in predictedHover {
            #expect(f.predicted.allSatisfy { $0.time > f.sample.time && $0.distance == f.sample.distance })
            #expect(f.predicted.last!.time - f.sample.time <= horizon / 2)
        }
        let dragged = replay.messages(try Traces.inputs("wacom-intuos4-6x9-stylus-drag.evemu")).frames
        let contactReach = dragged.filter { $0.stroke != nil }.compactMap { f in f.predicted.last.map { $0.time - f.sample.time } }
        #expect((contactReach.max() ?? 0) > horizon / 2)
    }

    @Test func replayIsDeterministic() throws {
        let inputs = try Traces.inputs("wacom-intuos4-6x9-stylus-drag.evemu")
        let replay = EngineReplay(latePressure: LatePressure(parsing: "20±10"))
        #expect(replay.messages(inputs).map { $0.jsonLine() } == replay.messages(inputs).map { $0.jsonLine() })
    }
}
