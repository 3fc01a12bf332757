/// How the prediction stage undoes libinput's smoothing of x and y, so that predictions aim
/// at where the real pen is rather than at the lagging smoothed path.
public enum SmoothingCompensation: String, Sendable, Hashable, CaseIterable {
    /// Predict the path as received (what a predictor does that ignores the smoothing).
    case none
    /// Recover each raw position by inverting libinput's filter, then predict from those.
    case invert
    /// Hand the predictor the smoothed samples with how each was averaged, so that it fits the
    /// raw path whose running mean matches them (only penkit's predictor uses this; others
    /// see the smoothed path).
    case model
}
