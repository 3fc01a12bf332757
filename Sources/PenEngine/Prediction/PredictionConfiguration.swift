/// What the live path asks of prediction. Made only through the throwing `init`, which refuses
/// the first setting out of its range by name, or as `standard(smoothed:)`: nothing is clamped later.
package struct PredictionConfiguration: Sendable, Hashable {
    /// The longest horizon any frame may predict: beyond this, predictions mislead more than help.
    package static let horizonCap: Duration = .milliseconds(50)
    /// `horizonCap` in seconds, for the per-frame cap on a requested horizon.
    package static let horizonCapSeconds = horizonCap.inSeconds
    /// The longest `gapReset`: input 10 s apart is not one motion.
    package static let longestGapReset: Duration = .seconds(10)
    /// The most raw positions an input filter may average into one (libinput's: 4).
    package static let largestInputSmoothing = 16

    /// How far ahead to predict on each frame; the horizon whose predictions are scored to learn
    /// the expected error.
    package let horizon: Duration
    /// An input gap longer than this starts the predictor afresh, as Chromium does.
    package let gapReset: Duration
    /// A predicted force below this while touching is a predicted lift: nothing is predicted past it.
    package let liftPressure: Double
    /// Share of the horizon predicted while hovering, where motion is less purposeful.
    package let hoverHorizonScale: Double
    /// How many raw positions libinput averages into each reported one: 4 by default, 1 when
    /// its smoothing is off (the quirk AttrTabletSmoothing=0, or `--no-smoothing` replays).
    package let inputSmoothing: Int
    /// The live path's settings, each in one place: `init`'s defaults and `standard(smoothed:)`.
    package static let defaultHorizon: Duration = .milliseconds(16)
    package static let defaultGapReset: Duration = .milliseconds(20)
    package static let defaultLiftPressure = 0.01
    package static let defaultHoverHorizonScale = 0.5
    /// libinput's smoothing window when it smooths (its default), and when it does not.
    package static let libinputSmoothing = 4, noSmoothing = 1
    /// With `.estimate`, the jerk noise density (mm²/s⁵) of `SmoothingRecovery`'s motion model
    /// against its 0.01 mm observation noise: larger follows the samples more closely (towards
    /// exact inversion), smaller smooths more. Chosen in decades (docs/prediction.md); the
    /// figures are flat from 10¹⁰ to 10¹².
    package let estimationJerkNoise: Double
    package static let defaultEstimationJerkNoise = 1e11
    /// The output damping's 1€ filter (`OutputDamping`): its cutoff (Hz) for a displacement that
    /// does not change (0: no damping), and how much the cutoff rises per mm/s of change.
    /// 20 Hz and 0.3: the choice of `penkit bench predict-tune --motion --no-worse` among 5, 10,
    /// 20 Hz × 0.1, 0.3, 1 with the fit's decay and the motion smoothing (docs/prediction.md;
    /// the figures are flat across them, and each beats no damping held out).
    package let dampingMinCutoffHz: Double
    package let dampingBetaHzPerMMPerSecond: Double
    package static let defaultDampingMinCutoffHz = 20.0, defaultDampingBetaHzPerMMPerSecond = 0.3
    /// The residual correction (`ResidualCorrection`): how long (s) of this pen's scored
    /// predictions its regression remembers (0: no correction), and how many scored
    /// predictions it takes to apply half the solved correction (it is shrunk toward zero by
    /// n / (n + this)).
    package let correctionMemory: Duration
    package let correctionShrinkCount: Double
    package static let defaultCorrectionMemory: Duration = .seconds(30)
    package static let defaultCorrectionShrinkCount = 30.0
    /// The longest memory: the pen's habits, not its whole history.
    package static let longestCorrectionMemory: Duration = .seconds(600)

    /// `horizon` in seconds and `gapReset` in µs, converted once here: the per-sample path
    /// does no `Duration` arithmetic.
    let horizonSeconds: Double
    let gapResetMicros: UInt64
    let correctionMemorySeconds: Double

    /// These settings, or the first one out of its range.
    package init(horizon: Duration = Self.defaultHorizon, gapReset: Duration = Self.defaultGapReset,
                liftPressure: Double = Self.defaultLiftPressure, hoverHorizonScale: Double = Self.defaultHoverHorizonScale,
                inputSmoothing: Int = Self.noSmoothing,
                estimationJerkNoise: Double = Self.defaultEstimationJerkNoise,
                dampingMinCutoffHz: Double = Self.defaultDampingMinCutoffHz,
                dampingBetaHzPerMMPerSecond: Double = Self.defaultDampingBetaHzPerMMPerSecond,
                correctionMemory: Duration = Self.defaultCorrectionMemory,
                correctionShrinkCount: Double = Self.defaultCorrectionShrinkCount) throws(ParameterError) {
        let check = ParameterCheck(owner: "prediction")
        try check.time("horizon", horizon, longest: Self.horizonCap, allowZero: true)
        try check.time("gapReset", gapReset, longest: Self.longestGapReset)
        try check.number("liftPressure", liftPressure, from: 0, to: 1)
        try check.number("hoverHorizonScale", hoverHorizonScale, from: 0, to: 1)
        try check.count("inputSmoothing", inputSmoothing, from: 1, to: Self.largestInputSmoothing)
        try check.number("estimationJerkNoise", estimationJerkNoise, over: 0, unit: " mm²/s⁵")
        try check.number("dampingMinCutoffHz", dampingMinCutoffHz, from: 0, to: 1_000, unit: " Hz")
        try check.number("dampingBetaHzPerMMPerSecond", dampingBetaHzPerMMPerSecond, from: 0, to: 100, unit: " Hz per mm/s")
        try check.time("correctionMemory", correctionMemory, longest: Self.longestCorrectionMemory, allowZero: true)
        try check.number("correctionShrinkCount", correctionShrinkCount, from: 0, to: 100_000, unit: " predictions")
        self.init(checked: horizon, gapReset, liftPressure, hoverHorizonScale, inputSmoothing,
                  estimationJerkNoise, dampingMinCutoffHz, dampingBetaHzPerMMPerSecond, correctionMemory, correctionShrinkCount)
    }

    /// The live path's settings, for input libinput smoothed over its 4 samples or not smoothed.
    package static func standard(smoothed: Bool = false) -> Self {
        Self(checked: defaultHorizon, defaultGapReset, defaultLiftPressure, defaultHoverHorizonScale,
             smoothed ? libinputSmoothing : noSmoothing, defaultEstimationJerkNoise,
             defaultDampingMinCutoffHz, defaultDampingBetaHzPerMMPerSecond, defaultCorrectionMemory, defaultCorrectionShrinkCount)
    }

    private init(checked horizon: Duration, _ gapReset: Duration, _ liftPressure: Double, _ hoverHorizonScale: Double,
                 _ inputSmoothing: Int,
                 _ estimationJerkNoise: Double, _ dampingMinCutoffHz: Double, _ dampingBetaHzPerMMPerSecond: Double,
                 _ correctionMemory: Duration, _ correctionShrinkCount: Double) {
        self.horizon = horizon
        self.gapReset = gapReset
        self.liftPressure = liftPressure
        self.hoverHorizonScale = hoverHorizonScale
        self.inputSmoothing = inputSmoothing
        self.estimationJerkNoise = estimationJerkNoise
        self.dampingMinCutoffHz = dampingMinCutoffHz
        self.dampingBetaHzPerMMPerSecond = dampingBetaHzPerMMPerSecond
        self.correctionMemory = correctionMemory
        self.correctionShrinkCount = correctionShrinkCount
        correctionMemorySeconds = correctionMemory.inSeconds
        horizonSeconds = horizon.inSeconds
        gapResetMicros = gapReset.wholeMicroseconds
    }

    /// The same settings predicting `horizon` ahead, with other estimation noise, output damping
    /// and residual correction (the benchmark's entrants), or the first setting out of its range.
    package func with(horizon: Duration,
                     estimationJerkNoise: Double = Self.defaultEstimationJerkNoise,
                     dampingMinCutoffHz: Double = Self.defaultDampingMinCutoffHz,
                     dampingBetaHzPerMMPerSecond: Double = Self.defaultDampingBetaHzPerMMPerSecond,
                     correctionMemory: Duration = Self.defaultCorrectionMemory,
                     correctionShrinkCount: Double = Self.defaultCorrectionShrinkCount) throws(ParameterError) -> Self {
        try Self(horizon: horizon, gapReset: gapReset, liftPressure: liftPressure, hoverHorizonScale: hoverHorizonScale,
                 inputSmoothing: inputSmoothing,
                 estimationJerkNoise: estimationJerkNoise, dampingMinCutoffHz: dampingMinCutoffHz,
                 dampingBetaHzPerMMPerSecond: dampingBetaHzPerMMPerSecond,
                 correctionMemory: correctionMemory, correctionShrinkCount: correctionShrinkCount)
    }
}
