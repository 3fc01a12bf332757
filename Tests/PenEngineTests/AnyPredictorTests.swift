import Foundation
import Testing
@testable import PenEngine
import PenEvaluation

/// Hover then contact reports 5 ms apart, curving and pressing harder, then easing off.
private func strokeWithTouchdown() -> [PredictionSample] {
    (0..<80).map { i in
        let t = Double(i) * 0.005
        return PredictionSample(time: 1_000_000 + UInt64(i) * 5_000, x: 10 + 60 * t, y: 20 + 40 * t * t,
                                pressure: i < 20 ? 0 : 0.3 + 0.2 * sin(t * 8), touching: i >= 20)
    }
}

@Suite("The benchmark's predictor seam")
struct AnyPredictorTests {
    @Test("penkit's predictor behind AnyPredictor (the benchmark's) predicts exactly what the engine's stage predicts")
    func penkitThroughTheSeam() throws {
        var parameters = PenkitPredictor.Parameters()
        parameters.travelGain = 0.8
        // The lab's tuning of the predictor at its defaults against the product's own.
        var seam = LabStage(predictor: try LabPenkitPredictor(parameters: parameters), configuration: .standard(smoothed: true))
        var own = EnginePrediction(try PenkitPredictor(parameters: parameters), configuration: .standard(smoothed: true))
        var compared = 0
        for sample in strokeWithTouchdown() {
            seam.add(sample)
            own.add(sample)
            #expect(seam.predictions == own.predictions)
            #expect(seam.expectedError == own.expectedError && seam.liftProbability == own.liftProbability)
            compared += seam.predictions.count
        }
        #expect(compared > 100)
        #expect((seam.predictor.base as? LabPenkitPredictor)?.parameters == parameters)
        #expect(seam.predictor.name == "penkit")
    }

    @Test("any other predictor is run as given", arguments: [PredictorKind.linear, .kalman])
    func otherPredictors(kind: PredictorKind) {
        let seam = AnyPredictor(kind.make())
        #expect(seam.name == kind.rawValue)
        #expect(!(seam.base is LabPenkitPredictor))
    }
}
