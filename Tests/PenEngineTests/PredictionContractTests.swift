import Foundation
@testable import PenEngine
import PenEvaluation
import PenKit
import Testing

/// Samples every `interval` µs moving at `velocity` mm/s along x, with pressure `pressure(i)`.
private func uniformStroke(count: Int, interval: UInt64 = 4_000, start: UInt64 = 1_000_000,
                           velocity: Double = 100, touching: Bool = true,
                           pressure: (Int) -> Double = { _ in 0.5 }) -> [PredictionSample] {
    (0..<count).map { i in
        let time = start + UInt64(i) * interval
        return PredictionSample(time: time, x: 10 + velocity * Double(time - start) * 1e-6, y: 20,
                                pressure: pressure(i), touching: touching)
    }
}

private func stage(_ kind: PredictorKind, horizon: Duration = .milliseconds(16),
                   dampingHz: Double = PredictionConfiguration.defaultDampingMinCutoffHz) throws -> LabStage {
    LabStage(predictor: kind.make(),
                    configuration: try PredictionConfiguration(horizon: horizon, dampingMinCutoffHz: dampingHz))
}

@Suite("Prediction contracts")
struct PredictionContractTests {
    @Test("predictions are spaced at the report interval, the last exactly at the horizon", arguments: PredictorKind.allCases)
    func spacing(kind: PredictorKind) throws {
        var s = try stage(kind)
        for sample in uniformStroke(count: 30, interval: 5_000) { s.add(sample) }
        let newest = uniformStroke(count: 30, interval: 5_000).last!.time
        // 5 ms reports, 16 ms horizon: 5, 10 and 15 ms ahead, then the horizon itself.
        #expect(s.predictions.map(\.time) == [newest + 5_000, newest + 10_000, newest + 15_000, newest + 16_000])
        #expect(!s.cutByLift)
        #expect(s.predictions.allSatisfy { $0.predicted && $0.touching })
    }

    @Test("the horizon is capped at 50 ms", arguments: PredictorKind.allCases)
    func horizonCap(kind: PredictorKind) throws {
        // A configured horizon past the cap is refused where it is made, not capped.
        #expect(throws: ParameterError.self) { try stage(kind, horizon: .milliseconds(500)) }
        var s = try stage(kind, horizon: .milliseconds(50))
        #expect(s.configuration.horizon == .milliseconds(50))
        let samples = uniformStroke(count: 30, interval: 4_000)
        for sample in samples { s.add(sample, horizon: 0.2) }
        // 4, 8, … 48 ms, then 50.
        #expect(s.predictions.count == 13)
        #expect(s.predictions.last!.time == samples.last!.time + 50_000)
    }

    @Test("nothing is predicted past a predicted lift", arguments: PredictorKind.allCases)
    func noPredictionPastLift(kind: PredictorKind) throws {
        // Pressure falls 0.04 per 4 ms report to 0.06: a linear trend crosses zero within 8 ms.
        let samples = uniformStroke(count: 20, interval: 4_000) { i in 0.06 + 0.04 * Double(19 - i) }
        var s = try stage(kind)
        for sample in samples { s.add(sample) }
        #expect(s.predictions.allSatisfy { $0.pressure >= s.configuration.liftPressure })
        // Holding the last force never predicts a lift; every other predictor must.
        #expect(kind == .none || s.predictions.count < 4)
        #expect(kind == .none || s.cutByLift)
        #expect(kind == .none || (s.predictions.last?.time ?? 0) < samples.last!.time + 16_000)
        #expect(kind != .none || s.predictions.last!.time == samples.last!.time + 16_000)
    }

    /// Force falling 0.01 per ms to `newestForce` at 100 mm/s along x: samples every 4 ms while
    /// the force holds 1 %, then the last where it crosses 1 % (at least 1 µs ahead).
    @Test("the linear predictor's last sample lies at the predicted lift", arguments: [
        (0.06, [UInt64(4_000)], UInt64(5_000)),  // 0.02 at 4 ms is kept, 1 % at 5 ms
        (0.03, [], 2_000),  // due within the first report interval: nothing was predicted before
        (0.005, [], 1),  // already under 1 %: the pen's position now, a microsecond ahead
    ])
    func linearLiftIsExact(newestForce: Double, kept: [UInt64], crossing: UInt64) throws {
        let samples = uniformStroke(count: 20, interval: 4_000) { i in newestForce + 0.04 * Double(19 - i) }
        var s = try stage(.linear)
        for sample in samples { s.add(sample) }
        let newest = samples.last!
        #expect(s.cutByLift)
        try #require(s.predictions.count == kept.count + 1)
        #expect(s.predictions.dropLast().map { $0.time - newest.time } == kept)
        let last = s.predictions.last!
        // To the microsecond of a sample's time.
        #expect(abs(Double(last.time - newest.time) - Double(crossing)) <= 1)
        #expect(abs(last.x - (newest.x + 100 * Double(crossing) * 1e-6)) < 1e-3)
        #expect(last.y == newest.y)
        #expect(last.pressure >= s.configuration.liftPressure && last.pressure < s.configuration.liftPressure + 1e-3)
    }

    @Test("a gap over 20 ms starts afresh", arguments: PredictorKind.allCases)
    func resetAfterGap(kind: PredictorKind) throws {
        var s = try stage(kind)
        let before = uniformStroke(count: 20, interval: 4_000)
        for sample in before { s.add(sample) }
        #expect(!s.predictions.isEmpty || kind == .none)
        // 21 ms later: one sample since the reset, no interval, no motion: the pen is
        // predicted to stand still, still exactly at the horizon.
        var late = before.last!
        late.time += 21_000
        s.add(late)
        #expect(s.reportInterval == nil)
        #expect(s.predictions.map(\.time) == [late.time + 16_000])
        #expect(s.predictions.allSatisfy { $0.x == late.x && $0.y == late.y })
    }

    @Test("a gap of 20 ms or less keeps the history")
    func noResetWithinGap() throws {
        var s = try stage(.linear)
        let before = uniformStroke(count: 10, interval: 4_000)
        for sample in before { s.add(sample) }
        var next = before.last!
        next.time += 20_000
        next.x += 2  // 100 mm/s for 20 ms
        s.add(next)
        #expect(s.reportInterval != nil)
        #expect(!s.predictions.isEmpty)
    }

    @Test("after a reset only new samples count")
    func resetForgetsOldMotion() throws {
        // Undamped: the figure below is the linear predictor's own (OutputDampingTests test the damping).
        var s = try stage(.linear, dampingHz: 0)
        for sample in uniformStroke(count: 10, interval: 4_000, velocity: 100) { s.add(sample) }
        // A new stroke 50 ms later moving at −50 mm/s along x from x = 100.
        let start: UInt64 = 2_000_000
        for i in 0..<3 {
            s.add(PredictionSample(time: start + UInt64(i) * 4_000, x: 100 - 0.2 * Double(i), y: 20, pressure: 0.5))
        }
        // Linear from the new samples only: 4 ms ahead of x = 99.6 at −50 mm/s.
        #expect(abs(s.predictions[0].x - 99.4) < 1e-9)
    }

    @Test("a change of contact starts a predictor afresh unless it carries the motion over")
    func resetOnContactChange() throws {
        var s = try stage(.linear)
        for sample in uniformStroke(count: 10, interval: 4_000) { s.add(sample) }
        var hover = uniformStroke(count: 11, interval: 4_000).last!
        hover.touching = false
        s.add(hover)
        // The linear predictor forgets: it holds the pen still.
        #expect(s.predictions.allSatisfy { $0.x == hover.x && !$0.touching })
    }

    @Test("hover predicts a shorter horizon, marked not touching")
    func hoverHorizon() throws {
        var s = try stage(.linear)
        for sample in uniformStroke(count: 10, interval: 4_000, touching: false) { s.add(sample) }
        // Half of 16 ms at 4 ms reports.
        #expect(s.predictions.count == 2)
        #expect(s.predictions.allSatisfy { !$0.touching && $0.predicted })
    }

    @Test("the same input gives the same predictions", arguments: PredictorKind.allCases)
    func deterministic(kind: PredictorKind) throws {
        let samples = (0..<60).map { i -> PredictionSample in
            let t = Double(i) * 0.005
            return PredictionSample(time: 5_000_000 + UInt64(i) * 5_000 + UInt64((i * 7919) % 3) * 1_000,
                                    x: 30 + 20 * cos(t * 9), y: 40 + 15 * sin(t * 13),
                                    pressure: 0.3 + 0.2 * sin(t * 5), azimuth: 1 + t, altitude: 1, touching: true)
        }
        func run() throws -> [[PredictionSample]] {
            var s = try stage(kind)
            return samples.map { s.add($0); return s.predictions }
        }
        let first = try run()
        #expect(try first == run())
        #expect(first.contains { !$0.isEmpty } || kind == .none)
    }

    @Test("real samples are never marked predicted")
    func realSamplesStayReal() throws {
        var s = try stage(.linear)
        var sample = uniformStroke(count: 1).first!
        sample.predicted = true
        s.add(sample)
        #expect(s.reference?.predicted == false)
    }
}

@Suite("Prediction through the engine's seam")
struct EnginePredictionTests {
    @Test("contact frames get predicted samples at the report interval, with force and angles")
    func framePredictions() throws {
        var seam = EnginePrediction.penkit(smoothed: false)
        var newest = Sample(time: 0, x: 0, y: 0)
        var last: [Sample] = []
        for i in 0..<20 {
            newest = Sample(time: 1_000_000 + UInt64(i) * 5_000, x: 10 + 0.5 * Double(i), y: 5,
                            force: 0.4, azimuth: 1, altitude: 0.9, roll: 0.25)
            last = seam.predict(after: newest, touching: true)
        }
        #expect(last.map(\.time) == [newest.time + 5_000, newest.time + 10_000, newest.time + 15_000, newest.time + 16_000])
        #expect(last.allSatisfy { $0.x > newest.x && $0.force == 0.4 && $0.azimuth == 1 && $0.altitude == 0.9 && $0.roll == 0.25 })
        #expect(seam.confidence.expectedError != nil && seam.confidence.liftProbability != nil)
        seam.reset(.proximity(nil))
        // One sample after a reset: no motion known, the pen stands still at the horizon.
        let still = seam.predict(after: newest, touching: true)
        #expect(still.map(\.time) == [newest.time + 16_000])
        #expect(still.allSatisfy { $0.x == newest.x })
    }
}
