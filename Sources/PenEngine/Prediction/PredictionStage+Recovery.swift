import PenKit

/// The stage's first step: from each smoothed sample to the real pen it stands for, after
/// forgetting what a discontinuity before it made stale.
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

    /// `sample` as the predictor fits it (`fitted`: recovered, or marked with how libinput
    /// averaged it, as the compensation says) and the raw position recovered from it (`raw`:
    /// estimated with `.estimate`, inverted otherwise).
    mutating func recovered(_ sample: PredictionSample, step: Double) -> (fitted: PredictionSample, raw: PredictionSample) {
        var real = sample
        real.predicted = false
        real.smoothingWindow = 1
        real.smoothedSamples = 1
        var raw = real
        let smoothed = SIMD2(sample.x, sample.y)
        // The product's `.estimate` runs the estimation alone: the inversion serves only the
        // lab's other compensations. (Its result was unused under `.estimate`; skipping it, tried
        // once before with another change, left the output byte-identical: docs/dataplane.md.)
        let position = configuration.compensation == .estimate
            ? recovery.raw(from: smoothed, step: step) : inverse.raw(from: smoothed)
        raw.x = position[0]
        raw.y = position[1]
        switch configuration.compensation {
        case .none: break
        case .invert, .estimate: real = raw
        case .model, .blend:
            real.smoothingWindow = UInt8(inverse.window)
            real.smoothedSamples = UInt8(inverse.distinct)
        }
        return (real, raw)
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
