import PenKit

/// The stage's first step: each smoothed sample handed to the model after forgetting what a
/// discontinuity before it made stale, and earlier predictions scored against the real pen.
extension PredictionStage {
    /// Hands the stage the reset event a discontinuity before `sample` calls for (time going
    /// backwards, a gap, a contact change), and returns the step (s) between reports.
    mutating func forgetAcrossDiscontinuity(before sample: PredictionSample) -> Double {
        guard let previous = newest else { return 0 }
        if sample.time <= previous.time {
            reset(.timeWentBackwards)
        } else if sample.time - previous.time > configuration.gapResetMicros {
            reset(.gap)
        } else {
            if sample.touching != previous.touching { reset(.contactChange) }
            interval.add(Double(sample.time - previous.time) * 1e-6)
        }
        // Evenly spaced, as the reports are (their timestamps carry USB polling jitter).
        return interval.value ?? (sample.time > previous.time ? Double(sample.time - previous.time) * 1e-6 : 0)
    }

    /// `sample` as a real one, x and y still as libinput smoothed them: what the model recovers from.
    func real(_ sample: PredictionSample) -> PredictionSample {
        var real = sample
        real.predicted = false
        real.smoothingWindow = 1
        real.smoothedSamples = 1
        return real
    }

    /// Scores the predictions whose time the real pen (`raw`) has reached: the residual
    /// correction's, and the calibration's of contact or hover as the pen is now.
    mutating func scorePredictions(against raw: PredictionSample) {
        let rawPen = SIMD3(raw.x, raw.y, raw.pressure)
        calibrations.correction.observe(time: raw.time, real: rawPen)
        if raw.touching {
            calibrations.contact.observe(time: raw.time, real: rawPen)
        } else {
            calibrations.hover.observe(time: raw.time, real: rawPen)
        }
    }
}
