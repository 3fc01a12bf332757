/// What a `PredictionStage` predicts with: a predictor and the way it undoes libinput's
/// smoothing. The stage keeps every prediction's contracts (spacing, horizon cap, lift, resets,
/// post-filters, confidence) once; the model only recovers the pen and extrapolates it.
///
/// The product's model is `PenkitPrediction`. The lab's (other predictors, other ways of undoing
/// the smoothing) lives in PenEvaluation and plugs in here: this is `package` for that alone.
package protocol PredictionModel: Sendable {
    /// Forgets what `event` makes stale.
    mutating func reset(for event: PredictionReset)
    /// Takes a real sample, its flags cleared (`smoothed`: x and y as libinput reported them),
    /// `step` (s) the even spacing of reports. Returns the sample the predictor fitted and the
    /// raw pen position recovered from it, against which predictions are scored.
    mutating func receive(_ smoothed: PredictionSample, step: Double) -> (fitted: PredictionSample, raw: PredictionSample)
    /// Where predictions start: `raw` when the model aims at the real pen.
    func origin(fitted: PredictionSample, raw: PredictionSample) -> PredictionSample
    /// The state `dt` seconds after the newest sample; nil with too little history.
    func extrapolate(by dt: Double) -> PredictionSample?
    /// How much of a requested horizon (s) the model trusts now, in [0, 1].
    func confidence(forHorizon horizon: Double) -> Double
}
