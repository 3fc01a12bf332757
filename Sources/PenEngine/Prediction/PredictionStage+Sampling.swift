import PenKit

/// The predictor and the sampler: the predictor's path, one sample per report interval and the
/// last exactly at the horizon, unless a predicted lift stops them first.
extension PredictionStage {
    /// Fills `predictions` from `reference` to `horizon` (s); returns the force the predictor
    /// gave the last sample it made (below the lift threshold when a lift cut them), and
    /// whether it knew too little to predict (`standingStill`: the pen held where it is).
    mutating func samplePredictions(from reference: PredictionSample,
                                    horizon: Double) -> (lastForce: Double, standingStill: Bool) {
        // A predictor's confidence shortens how far the samples travel, not how far ahead they lie.
        let confidence = clamp(model.confidence(forHorizon: horizon), 0, 1)
        var lastForce = reference.pressure
        var standingStill = false
        var previousDT = 0.0
        var k = 1
        while true {
            var dt = horizon
            // Samples closer than a tenth of an interval to the horizon's own would only crowd it.
            if let step = interval.value, Double(k) * step < horizon - PredictionConstants.horizonCrowding * step {
                dt = Double(k) * step
            }
            var sample: PredictionSample
            (sample, standingStill) = extrapolated(by: dt, confidence: confidence, from: reference)
            lastForce = sample.pressure
            if reference.touching && sample.pressure < configuration.liftPressure {
                cutByLift = true
                appendLastBeforeLift(between: previousDT, and: dt, confidence: confidence, from: reference)
                break
            }
            sample.time = reference.time.saturatingAdd(UInt64(saturatingMicroseconds: dt))
            predictions.append(sample)
            if dt >= horizon { break }
            previousDT = dt
            k += 1
        }
        return (lastForce, standingStill)
    }

    /// Ends the predictions where the force is predicted to cross the lift threshold, between the
    /// last sample kept (or the reference, at 0) and the first one below it. Stopping one report
    /// interval early instead would leave a client nothing ahead of the newest sample when the
    /// lift is due within one interval: with smoothing compensated, that sample lags the real pen
    /// by about 1.5 intervals, the worst error a stroke's end showed. The crossing is found by
    /// bisection on the predictor's own force (predictors clamp force at 0, so interpolating the
    /// two samples would put it late), to 1/4096 of the step.
    mutating func appendLastBeforeLift(between previous: Double, and below: Double,
                                               confidence: Double, from reference: PredictionSample) {
        let threshold = configuration.liftPressure
        var low = previous, high = below
        for _ in 0..<PredictionConstants.liftBisectionSteps {
            let middle = (low + high) / 2
            if extrapolated(by: middle, confidence: confidence, from: reference).sample.pressure < threshold {
                high = middle
            } else {
                low = middle
            }
        }
        // At least a microsecond ahead: a lift due now still leaves the pen's position now.
        let dt = max(low, 1e-6)
        var last = extrapolated(by: dt, confidence: confidence, from: reference).sample
        last.pressure = max(last.pressure, threshold)
        last.time = reference.time.saturatingAdd(max(1, UInt64(saturatingMicroseconds: dt)))
        predictions.append(last)
    }

    /// The predictor's guess `dt` ahead, its travel scaled by `confidence`; the real position
    /// held still (`standingStill`) when the predictor has too little history to say anything.
    func extrapolated(by dt: Double, confidence: Double,
                              from reference: PredictionSample) -> (sample: PredictionSample, standingStill: Bool) {
        guard var sample = model.extrapolate(by: dt) else {
            var still = reference
            still.predicted = true
            return (still, true)
        }
        if confidence < 1 {
            sample.x = reference.x + (sample.x - reference.x) * confidence
            sample.y = reference.y + (sample.y - reference.y) * confidence
        }
        sample.touching = reference.touching
        sample.predicted = true
        sample.smoothingWindow = 1
        sample.smoothedSamples = 1
        return (sample, false)
    }
}
