/// What the live path asks of prediction, validated once here.
public struct PredictionConfiguration: Sendable, Hashable {
    /// The longest horizon any frame may predict: beyond this, predictions mislead more than help.
    public static let horizonCap = 0.050
    /// Seconds ahead to predict on each frame (capped at `horizonCap`); the horizon whose
    /// predictions are scored to learn the expected error.
    public private(set) var horizon: Double
    /// An input gap longer than this (s) starts the predictor afresh, as Chromium does.
    public private(set) var gapReset: Double
    /// A predicted force below this while touching is a predicted lift: nothing is predicted past it.
    public private(set) var liftPressure: Double
    /// Share of the horizon predicted while hovering, where motion is less purposeful.
    public private(set) var hoverHorizonScale: Double
    /// How many raw positions libinput averages into each reported one: 4 by default, 1 when
    /// its smoothing is off (the quirk AttrTabletSmoothing=0, or `--no-smoothing` replays).
    public private(set) var inputSmoothing: Int
    /// How predictions undo that smoothing to aim at the real pen.
    public var compensation: SmoothingCompensation
    /// With `.blend`, the share of the prediction from the inverted path (the rest: the modelled one).
    public var blendWeight = Self.defaultBlendWeight
    public static let defaultBlendWeight = 0.5
    /// With `.estimate`, the jerk noise density (mm²/s⁵) of `SmoothingRecovery`'s motion model
    /// against its 0.01 mm observation noise: larger follows the samples more closely (towards
    /// exact inversion), smaller smooths more. Chosen in decades (docs/prediction.md); the
    /// figures are flat from 10¹⁰ to 10¹².
    public var estimationJerkNoise = Self.defaultEstimationJerkNoise
    public static let defaultEstimationJerkNoise = 1e11

    public init(horizon: Double = 0.016, gapReset: Double = 0.020, liftPressure: Double = 0.01,
                hoverHorizonScale: Double = 0.5, inputSmoothing: Int = 1,
                compensation: SmoothingCompensation = .defaultChoice) {
        self.horizon = clamp(horizon.isFinite ? horizon : 0, 0, Self.horizonCap)
        // Out-of-range values fall back to sane ones rather than trapping on the hot path.
        self.gapReset = gapReset.isFinite && gapReset > 0 ? min(gapReset, 10) : 0.020
        self.liftPressure = liftPressure.isFinite ? liftPressure : 0.01
        self.hoverHorizonScale = hoverHorizonScale.isFinite ? clamp(hoverHorizonScale, 0, 1) : 0.5
        self.inputSmoothing = min(max(inputSmoothing, 1), 16)
        self.compensation = compensation
    }
}
