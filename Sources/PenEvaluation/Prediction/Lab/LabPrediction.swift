import PenEngine

/// The lab's prediction model: any predictor (penkit's, a baseline, a test's) with any of the
/// ways of undoing libinput's smoothing that the lab compares (`ExperimentalPrediction`). With
/// penkit's predictor and `.estimate` it computes what the product's `PenkitPrediction` does,
/// through the same predictor and `SmoothingRecovery`. The benchmark runs it around
/// `AnyPredictor` (`LabStage`); `penkit bench predict-cost` around each predictor's own type.
package struct LabPrediction<P: Predictor>: PredictionModel {
    package private(set) var predictor: P
    /// A second copy of the predictor fed the inverted raw path, for `.blend` only.
    private var invertedPredictor: P
    package let experimental: ExperimentalPrediction
    /// Inverts libinput's filter, for every compensation but `.estimate`.
    private var inverse: SmoothingInverse
    /// Estimates the raw path instead, for `.estimate`.
    private var recovery: SmoothingRecovery

    package init(_ predictor: P, experimental: ExperimentalPrediction, configuration: PredictionConfiguration) {
        self.predictor = predictor
        invertedPredictor = predictor
        self.experimental = experimental
        inverse = SmoothingInverse(window: configuration.inputSmoothing)
        recovery = SmoothingRecovery(window: configuration.inputSmoothing, jerkNoise: configuration.estimationJerkNoise)
    }

    package mutating func reset(for event: PredictionReset) {
        predictor.reset(for: event)
        invertedPredictor.reset(for: event)
        inverse.reset(for: event)
        recovery.reset(for: event)
    }

    /// `smoothed` as the compensation has the predictor fit it (recovered, or marked with how
    /// libinput averaged it) and the raw position recovered from it (estimated with `.estimate`,
    /// inverted otherwise).
    package mutating func receive(_ smoothed: PredictionSample, step: Double) -> (fitted: PredictionSample, raw: PredictionSample) {
        let compensation = experimental.compensation
        var fitted = smoothed
        var raw = smoothed
        // `.estimate` runs the estimation alone: the inversion serves only the other compensations.
        let position = compensation == .estimate
            ? recovery.raw(from: SIMD2(smoothed.x, smoothed.y), step: step) : inverse.raw(from: SIMD2(smoothed.x, smoothed.y))
        raw.x = position[0]
        raw.y = position[1]
        switch compensation {
        case .none: break
        case .invert, .estimate: fitted = raw
        case .model, .blend:
            fitted.smoothingWindow = UInt8(inverse.window)
            fitted.smoothedSamples = UInt8(inverse.distinct)
        }
        if compensation == .blend { invertedPredictor.update(raw) }
        predictor.update(fitted)
        return (fitted, raw)
    }

    /// The raw position when compensating, else the path as received.
    package func origin(fitted: PredictionSample, raw: PredictionSample) -> PredictionSample {
        experimental.compensation == .none ? fitted : raw
    }

    package func extrapolate(by dt: Double) -> PredictionSample? {
        guard var sample = predictor.extrapolate(by: dt) else { return nil }
        if experimental.compensation == .blend, let other = invertedPredictor.extrapolate(by: dt) {
            let w = experimental.blendWeight
            sample.x += (other.x - sample.x) * w
            sample.y += (other.y - sample.y) * w
        }
        return sample
    }

    package func confidence(forHorizon horizon: Double) -> Double { predictor.confidence(forHorizon: horizon) }
}
