import PenKit

/// The seam through which a predictor fills a frame's `predicted`
/// samples. The engine calls `reset()` when a tool comes into proximity, `predict` once
/// per contact frame and `predictHover` once per hover frame, on its own serial executor.
/// A stroke's first frames follow the hover frames before it, so prediction can use the
/// motion of a pen that touches down while moving.
public protocol FramePredictor: Sendable {
    /// `recent` holds the stroke's latest samples (up to
    /// `EngineConfiguration.predictorHistory`), oldest first; its last element
    /// is this frame's sample. Returns samples after it, later in time, for
    /// rendering only; empty when there is nothing to predict.
    mutating func predict(after recent: ArraySlice<Sample>) -> [Sample]
    /// A hover frame's predictions (in proximity, tip up): `sample` is the newest
    /// hover sample. Hover motion is less purposeful, so predictors may look less far ahead.
    mutating func predictHover(after sample: Sample) -> [Sample]
    mutating func reset()
    /// How sure the newest `predict`/`predictHover` was: expected error (mm) and lift probability.
    var confidence: PredictionConfidence { get }
    /// The newest frame's predictions again at another horizon (s), for clients that asked for
    /// their own; `newest` is that frame's sample. Changes nothing the next frame depends on.
    mutating func repredict(after newest: Sample, horizon: Double) -> [Sample]
}

/// How sure a frame's predictions are (docs/prediction.md says exactly what the numbers mean).
public struct PredictionConfidence: Sendable, Hashable {
    /// Distance (mm) within which the real pen is expected to be, at the last predicted
    /// sample's time, about 68 % of the time (learned from this pen's recent predictions).
    public var expectedError: Double?
    /// Probability that the pen lifts within the horizon (contact frames only).
    public var liftProbability: Double?

    public init(expectedError: Double? = nil, liftProbability: Double? = nil) {
        self.expectedError = expectedError
        self.liftProbability = liftProbability
    }
}

extension FramePredictor {
    /// Predictors that only know contact predict nothing while hovering.
    public mutating func predictHover(after sample: Sample) -> [Sample] { [] }
    public var confidence: PredictionConfidence { PredictionConfidence() }
    public mutating func repredict(after newest: Sample, horizon: Double) -> [Sample] { [] }
}
