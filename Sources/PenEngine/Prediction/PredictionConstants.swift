/// Every fixed tunable of prediction that is neither a setting (`PredictionConfiguration`) nor
/// a predictor parameter (`PenkitPredictor.Parameters`, `KalmanPredictor.Parameters`): each
/// with its unit, the range it may take and why it has its value, in one place, checked once
/// by `validated()` (PredictionConstantsTests) with the one validator the settings use.
/// Changing one changes what `penkit bench predict` prints.
@usableFromInline
enum PredictionConstants {
    // MARK: Expected error and lift probability (PredictionCalibration)

    /// Share of realised errors meant to fall within one expected error, in (0, 1): 68.27 %,
    /// as within ±1 σ of a Gaussian.
    static let calibrationCoverage = 0.6827
    /// mm added to every error scale, so a pen at rest still expects its noise; [0, 1] mm.
    static let calibrationFloorMM = 0.05
    /// Step of the learned quantile's logarithm per scored prediction, in (0, 1]: larger
    /// follows a pen's change of habits faster and wanders more.
    static let calibrationRate = 0.05
    /// Smallest spread of force errors believed, per second of horizon; (0, 100] force/s.
    static let minimumForceSpreadPerSecond = 0.3
    /// Tips each pen's calibration and residual correction keep until the pen reaches them;
    /// [1, 4096]: a 16 ms horizon at a 1 ms report interval needs 17.
    static let tipsAwaitingCapacity = 64
    /// Pens remembered besides the current one (PenCalibrations), least recently used forgotten; [0, 256].
    static let rememberedPens = 8

    // MARK: Estimating the raw path (SmoothingRecovery)

    /// Prior spread of the velocity at a fresh start, mm/s; (0, 10 000]: a brisk stroke.
    static let recoveryInitialSpeedMMPerSecond = 300.0
    /// Prior spread of the acceleration at a fresh start, mm/s²; (0, 10⁶].
    static let recoveryInitialAccelerationMMPerSecondSquared = 10_000.0
    /// Variance of one reported position, mm² (0.01 mm: below a device unit); (0, 1].
    /// `estimationJerkNoise` is chosen against it.
    @usableFromInline static let recoveryObservationNoiseMMSquared = 0.0001

    // MARK: The stage (PredictionStage, ReportInterval)

    /// Shortest report interval believed, s; (0, 0.01]: faster reports would make the buffers huge.
    static let shortestReportInterval = 0.001
    /// Share of each new interval taken into the smoothed one, in (0, 1]: one late or early
    /// report barely moves it.
    static let reportIntervalSmoothing = 0.25
    /// A sample closer than this share of an interval to the horizon's own is left out, in
    /// [0, 0.5]: it would only crowd it.
    static let horizonCrowding = 0.1
    /// Bisection steps finding a predicted lift; [1, 64]: 12 find it to 1/4096 of the step.
    static let liftBisectionSteps = 12
    /// How far back the force and angle trend reaches, µs; [1, 1 000 000]: every predictor's
    /// force and angles follow the last 8 ms (AttributeTrend).
    static let attributeTrendSpanMicros: UInt64 = 8_000

    /// These constants, or the first one out of its range.
    static func validated() throws(ParameterError) {
        let check = ParameterCheck(owner: "prediction constant")
        try check.number("calibrationCoverage", calibrationCoverage, over: 0, to: 0.9999)
        try check.number("calibrationFloorMM", calibrationFloorMM, from: 0, to: 1, unit: " mm")
        try check.number("calibrationRate", calibrationRate, over: 0, to: 1)
        try check.number("minimumForceSpreadPerSecond", minimumForceSpreadPerSecond, over: 0, to: 100, unit: " force/s")
        try check.count("tipsAwaitingCapacity", tipsAwaitingCapacity, from: 1, to: 4096)
        try check.count("rememberedPens", rememberedPens, from: 0, to: 256)
        try check.number("recoveryInitialSpeedMMPerSecond", recoveryInitialSpeedMMPerSecond, over: 0, to: 10_000, unit: " mm/s")
        try check.number("recoveryInitialAccelerationMMPerSecondSquared", recoveryInitialAccelerationMMPerSecondSquared,
                         over: 0, to: 1e6, unit: " mm/s²")
        try check.number("recoveryObservationNoiseMMSquared", recoveryObservationNoiseMMSquared, over: 0, to: 1, unit: " mm²")
        try check.number("shortestReportInterval", shortestReportInterval, over: 0, to: 0.01, unit: " s")
        try check.number("reportIntervalSmoothing", reportIntervalSmoothing, over: 0, to: 1)
        try check.number("horizonCrowding", horizonCrowding, from: 0, to: 0.5)
        try check.count("liftBisectionSteps", liftBisectionSteps, from: 1, to: 64)
        try check.count("attributeTrendSpanMicros", Int(attributeTrendSpanMicros), from: 1, to: 1_000_000)
    }
}
