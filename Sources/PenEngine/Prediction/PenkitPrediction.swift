/// The product's prediction model: penkit's predictor fitted to the raw path that
/// `SmoothingRecovery` estimates from libinput's smoothed samples, predicting from that raw
/// path. (The lab's alternatives, from inverting the filter to ignoring it, are in PenEvaluation.)
package struct PenkitPrediction: PredictionModel {
    package private(set) var predictor: PenkitPredictor
    /// Estimates the raw path libinput smoothed (`.estimate`, chosen over inversion and
    /// modelling the lag in the fit: docs/prediction.md).
    private var recovery: SmoothingRecovery

    package init(_ predictor: PenkitPredictor, configuration: PredictionConfiguration) {
        self.predictor = predictor
        recovery = SmoothingRecovery(window: configuration.inputSmoothing, jerkNoise: configuration.estimationJerkNoise)
    }

    package mutating func reset(for event: PredictionReset) {
        predictor.reset(for: event)
        recovery.reset(for: event)
    }

    package mutating func receive(_ smoothed: PredictionSample, step: Double) -> (fitted: PredictionSample, raw: PredictionSample) {
        var raw = smoothed
        let position = recovery.raw(from: SIMD2(smoothed.x, smoothed.y), step: step)
        raw.x = position[0]
        raw.y = position[1]
        predictor.update(raw)
        return (raw, raw)
    }

    package func origin(fitted: PredictionSample, raw: PredictionSample) -> PredictionSample { raw }

    package func extrapolate(by dt: Double) -> PredictionSample? { predictor.extrapolate(by: dt) }

    package func confidence(forHorizon horizon: Double) -> Double { predictor.confidence(forHorizon: horizon) }
}
