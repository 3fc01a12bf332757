import PenKit

/// The seam through which a predictor fills a frame's `predicted`
/// samples. The engine calls `reset()` when a stroke begins, `predict` once
/// per contact frame and `predictHover` once per hover frame, on its own serial executor.
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
}

extension FramePredictor {
    /// Predictors that only know contact predict nothing while hovering.
    public mutating func predictHover(after sample: Sample) -> [Sample] { [] }
}
