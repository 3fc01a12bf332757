/// Prediction error of one predictor at one horizon, in mm, in the terms Android's
/// MotionPredictorMetricsManager reports, plus Chromium's jitter and stroke-end overshoot.
public struct PredictionMetrics: Sendable, Codable, Hashable {
    public var predictor: String
    public var horizonMs: Double
    /// Frames whose target time falls inside the stroke.
    public var frames: Int
    /// Euclidean RMSE: along and off trajectory together.
    public var rmse: Double
    /// Error along the direction of travel at the target; positive = overshoot.
    public var alongMean: Double
    public var alongSD: Double
    public var offRMSE: Double
    /// Force in [0, 1].
    public var pressureRMSE: Double
    /// Frames where the pen moved faster than the high-speed threshold, and their RMSE.
    public var fastFrames: Int
    public var fastRMSE: Double
    /// RMS of error divided by the stroke's path length so far (Android's scale-invariant
    /// error), over frames with at least 1 mm of path.
    public var relativeRMSE: Double
    /// Mean change of the error vector between successive frames (Chromium's jitter).
    public var jitter: Double
    /// Frames whose target lies past the pen lift: truth is the lift point.
    public var endFrames: Int
    /// Mean error along the final direction of travel at stroke ends; positive = past the lift.
    public var endOvershootMean: Double
    public var endRMSE: Double
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
            jitter: jitterFrames > 0 ? jitterSum / Double(jitterFrames) : 0,
            endFrames: endFrames, endOvershootMean: endFrames > 0 ? endAlongSum / Double(endFrames) : 0,
            endRMSE: rms(endSumSquared, endFrames))
    }
}
