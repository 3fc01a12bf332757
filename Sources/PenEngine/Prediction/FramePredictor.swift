import PenKit

/// The seam through which a predictor fills a contact frame's `predicted`
/// samples. The engine calls `reset()` when a stroke begins and `predict` once
/// per contact frame, on its own serial executor.
public protocol FramePredictor: Sendable {
    /// `recent` holds the stroke's latest samples (up to
    /// `EngineConfiguration.predictorHistory`), oldest first; its last element
    /// is this frame's sample. Returns samples after it, later in time, for
    /// rendering only; empty when there is nothing to predict.
    mutating func predict(after recent: ArraySlice<Sample>) -> [Sample]
    mutating func reset()
}
