import PenKit

/// The last step: how sure the predictions are (`expectedError`, `liftProbability`), from
/// this pen's calibration, which learns from the frame's own predictions (`primary`).
extension PredictionStage {
    mutating func updateConfidence(from reference: PredictionSample, horizon: Double, lastForce: Double, primary: Bool) {
        let tip = predictions.last ?? reference
        let travel = distance(tip.x - reference.x, tip.y - reference.y)
        if reference.touching {
            liftProbability = calibrations.contact.liftProbability(
                predictedForce: lastForce, threshold: configuration.liftPressure, horizon: horizon)
            expectedError = Self.learn(from: primary ? predictions.last : nil, made: reference, travel: travel,
                                       in: &calibrations.contact)
        } else {
            expectedError = Self.learn(from: primary ? predictions.last : nil, made: reference, travel: travel,
                                       in: &calibrations.hover)
        }
    }

    /// The expected error for a prediction that travelled `travel` mm, after keeping `last`
    /// (the configured horizon's last predicted sample) to score once the pen reaches its time.
    private static func learn(from last: PredictionSample?, made reference: PredictionSample, travel: Double,
                              in calibration: inout PredictionCalibration) -> Double {
        if let last {
            calibration.record(target: last.time, x: last.x, y: last.y, pressure: last.pressure,
                               travel: travel, horizon: Double(last.time - reference.time) * 1e-6)
        }
        return calibration.expectedError(travel: travel)
    }
}
