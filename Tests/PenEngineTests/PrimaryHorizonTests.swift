import PenKit
import Testing
@testable import PenEngine

/// A contact stroke along x at 100 mm/s, reported every 5 ms, as the engine's samples.
private func steadyStroke(count: Int) -> [Sample] {
    (0..<count).map { i in
        let time = 1_000_000 + UInt64(i) * 5_000
        return Sample(time: time, x: 10 + 100 * Double(time - 1_000_000) * 1e-6, y: 20, force: 0.5)
    }
}

/// The stage penkit runs, its predictor keeping 70 % of its travel so the residual
/// correction has something to learn (it falls 0.48 mm short at 16 ms).
private func shortfallStage() throws -> EnginePrediction {
    var parameters = PenkitPredictor.Parameters()
    parameters.travelGain = 0.7
    return EnginePrediction(try PenkitPredictor(parameters: parameters), configuration: .standard())
}

@Suite("Primary horizon")
struct PrimaryHorizonTests {
    /// A client whose pipeline age is exactly the default horizon asks every frame again at
    /// 16 ms. Only the frame's own predictions may teach the stage: a second tip recorded for
    /// the same frame would count its outcome twice in the residual correction.
    @Test("a repredict at exactly the default horizon records no second tip")
    func repredictAtDefaultHorizonRecordsNothing() throws {
        let defaultHorizon = PredictionConfiguration.defaultHorizon.inSeconds
        var stage = try shortfallStage()
        for sample in steadyStroke(count: 40) {
            _ = stage.predict(after: sample, touching: true)
            let waiting = stage.calibrations.correction.tipsAwaiting
            _ = stage.repredict(after: sample, horizon: defaultHorizon)
            #expect(stage.calibrations.correction.tipsAwaiting == waiting)
        }
    }

    @Test("frames after a repredict at the default horizon are those without it")
    func repredictChangesNoLaterFrame() throws {
        let defaultHorizon = PredictionConfiguration.defaultHorizon.inSeconds
        var plain = try shortfallStage()
        var asked = try shortfallStage()
        var differing = 0
        for sample in steadyStroke(count: 600) {
            let expected = plain.predict(after: sample, touching: true)
            let got = asked.predict(after: sample, touching: true)
            if got != expected || asked.confidence != plain.confidence { differing += 1 }
            _ = asked.repredict(after: sample, horizon: defaultHorizon)
        }
        // The correction must have learned something, or this would pass whatever it records.
        #expect(plain.calibrations.correction.gate > 0)
        #expect(differing == 0)
    }
}
