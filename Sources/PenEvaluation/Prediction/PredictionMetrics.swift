import PenEngine
import PenInput
import PenKit

/// Prediction error of one predictor at one horizon, in mm, in the terms Android's
/// MotionPredictorMetricsManager reports, plus Chromium's jitter and stroke-end overshoot.
package struct PredictionMetrics: Sendable, Codable, Hashable {
    package var predictor: String
    package var horizonMs: Double
    /// Frames whose target time falls inside the stroke.
    package var frames: Int
    /// Euclidean RMSE: along and off trajectory together.
    package var rmse: Double
    /// Error along the direction of travel at the target; positive = overshoot.
    package var alongMean: Double
    package var alongSD: Double
    package var offRMSE: Double
    /// Force in [0, 1].
    package var pressureRMSE: Double
    /// Frames where the pen moved faster than the high-speed threshold, and their RMSE.
    package var fastFrames: Int
    package var fastRMSE: Double
    /// RMS of error divided by the stroke's path length so far (Android's scale-invariant
    /// error), over frames with at least 1 mm of path.
    package var relativeRMSE: Double
    /// Mean change of the error vector between successive frames (Chromium's jitter).
    package var jitter: Double
    /// Frame pairs the jitter averages over (to pool it across runs).
    package var jitterFrames: Int
    /// Frames whose target lies past the pen lift: truth is the lift point.
    package var endFrames: Int
    /// Mean error along the final direction of travel at stroke ends; positive = past the lift.
    package var endOvershootMean: Double
    package var endRMSE: Double
    /// Mean of how far ahead (ms) the last predicted sample lies, over every frame.
    package var reachMeanMs: Double
    /// Frames whose last predicted sample falls short of the horizon without a predicted lift
    /// (the contract says none), and frames cut by a predicted lift.
    package var shortFrames: Int
    package var liftCutFrames: Int
    /// Share of scored frames whose error is within the frame's expected error (aim: 0.68).
    package var withinExpected: Double
    /// Brier score of the lift probability (mean squared difference from what happened), and
    /// the mean probability given on frames where the pen did / did not lift within the horizon.
    package var liftBrier: Double
    package var liftFrames: Int
    package var liftMeanWhenLifting: Double
    package var liftMeanOtherwise: Double
}

/// Running sums for one predictor and horizon.
struct MetricsAccumulator: Sendable {
    var frames = 0
    var sumSquared = 0.0
    var alongSum = 0.0, alongSumSquared = 0.0, offSumSquared = 0.0
    var pressureSumSquared = 0.0
    var fastFrames = 0, fastSumSquared = 0.0
    var relativeFrames = 0, relativeSumSquared = 0.0
    var jitterFrames = 0, jitterSum = 0.0
    var endFrames = 0, endAlongSum = 0.0, endSumSquared = 0.0
    var reachFrames = 0, reachSum = 0.0, shortFrames = 0, liftCutFrames = 0
    var calibrationFrames = 0, withinExpected = 0
    var liftFrames = 0, liftedFrames = 0, brierSum = 0.0, liftProbabilityLifting = 0.0, liftProbabilityOther = 0.0

    mutating func addInside(along: Double, off: Double, pressure: Double, fast: Bool, relative: Double?) {
        let squared = along * along + off * off
        frames += 1
        sumSquared += squared
        alongSum += along
        alongSumSquared += along * along
        offSumSquared += off * off
        pressureSumSquared += pressure * pressure
        if fast {
            fastFrames += 1
            fastSumSquared += squared
        }
        if let relative {
            relativeFrames += 1
            relativeSumSquared += relative * relative
        }
    }

    mutating func addReach(_ milliseconds: Double, cutByLift: Bool, short: Bool) {
        reachFrames += 1
        reachSum += milliseconds
        if cutByLift { liftCutFrames += 1 }
        if short { shortFrames += 1 }
    }

    mutating func addCalibration(within: Bool) {
        calibrationFrames += 1
        if within { withinExpected += 1 }
    }

    mutating func addLift(probability: Double, lifted: Bool) {
        liftFrames += 1
        let outcome = lifted ? 1.0 : 0.0
        brierSum += (probability - outcome) * (probability - outcome)
        if lifted { liftedFrames += 1; liftProbabilityLifting += probability } else { liftProbabilityOther += probability }
    }

    mutating func addJitter(_ value: Double) {
        jitterFrames += 1
        jitterSum += value
    }

    mutating func addEnd(along: Double, error: Double) {
        endFrames += 1
        endAlongSum += along
        endSumSquared += error * error
    }

    func metrics(predictor: String, horizonMs: Double) -> PredictionMetrics {
        func rms(_ sum: Double, _ n: Int) -> Double { n > 0 ? (sum / Double(n)).squareRoot() : 0 }
        let n = Double(max(frames, 1))
        let mean = alongSum / n
        let variance = max(0, alongSumSquared / n - mean * mean)
        return PredictionMetrics(
            predictor: predictor, horizonMs: horizonMs, frames: frames,
            rmse: rms(sumSquared, frames), alongMean: mean, alongSD: variance.squareRoot(),
            offRMSE: rms(offSumSquared, frames), pressureRMSE: rms(pressureSumSquared, frames),
            fastFrames: fastFrames, fastRMSE: rms(fastSumSquared, fastFrames),
            relativeRMSE: rms(relativeSumSquared, relativeFrames),
            jitter: jitterFrames > 0 ? jitterSum / Double(jitterFrames) : 0, jitterFrames: jitterFrames,
            endFrames: endFrames, endOvershootMean: endFrames > 0 ? endAlongSum / Double(endFrames) : 0,
            endRMSE: rms(endSumSquared, endFrames),
            reachMeanMs: reachFrames > 0 ? reachSum / Double(reachFrames) : 0,
            shortFrames: shortFrames, liftCutFrames: liftCutFrames,
            withinExpected: calibrationFrames > 0 ? Double(withinExpected) / Double(calibrationFrames) : 0,
            liftBrier: liftFrames > 0 ? brierSum / Double(liftFrames) : 0, liftFrames: liftFrames,
            liftMeanWhenLifting: liftedFrames > 0 ? liftProbabilityLifting / Double(liftedFrames) : 0,
            liftMeanOtherwise: liftFrames > liftedFrames ? liftProbabilityOther / Double(liftFrames - liftedFrames) : 0)
    }
}
