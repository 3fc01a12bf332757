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
    /// Both at once: one copy of the predictor fits the modelled path, another the inverted
    /// one, and predictions take the mean of the two. Their errors differ in kind (inversion
    /// carries libinput's rounding as alternating noise; the model's heavier weighting of the
    /// past lags turns), so the mean is steadier than inversion and closer than the model.
    case blend
    /// Estimate the raw path (`SmoothingRecovery`: a Kalman filter that observes libinput's
    /// filter as a linear operator, with a white-jerk motion model as its smoothness prior)
    /// and predict from that. Inversion's noise, which piles up undamped, is not there to blend away.
    case estimate
}

extension SmoothingCompensation {
    /// What the live path uses: `.estimate` (chosen over `.blend` and `.invert` leaving one
    /// trace out, `penkit bench predict-tune --recovery --no-worse`; docs/prediction.md).
    public static let defaultChoice = SmoothingCompensation.estimate
}
