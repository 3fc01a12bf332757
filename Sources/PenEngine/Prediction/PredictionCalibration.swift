#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// How sure the predictions are, learned online from this pen's own predictions: each tip is
/// kept until the real pen reaches its time, then scored against where the pen really was.
///
/// - Expected error (mm): realised errors are divided by a scale, `floor + travel`, where
///   travel is how far the tip lies from the newest real position (faster pens miss by more).
///   The stage learns the 68.27th percentile of that ratio (a stochastic quantile update),
///   so about 68 % of errors fall within one expected error, as ±1 σ would for a Gaussian.
/// - Lift probability: the force predicted at the horizon, with the spread of this pen's force
///   prediction errors (RMS, growing with the horizon) as a Gaussian, gives the probability
///   that the force is below the lift threshold by then.
struct PredictionCalibration: Sendable {
    /// Its constants, with their units and ranges, are in PredictionConstants.
    static let coverage = PredictionConstants.calibrationCoverage
    static let floor = PredictionConstants.calibrationFloorMM
    static let rate = PredictionConstants.calibrationRate
    static let minimumForceSpread = PredictionConstants.minimumForceSpreadPerSecond

    private struct Tip: Sendable {
        var x: Double, y: Double, pressure: Double
        var scale: Double
        var horizon: Double
    }

    /// The learned quantile of error / scale.
    private(set) var errorRatio = 1.0
    /// Mean square of force error per second of horizon.
    private(set) var forceSpreadSquared = 1.0
    private(set) var scored = 0
    private var tips: TipsAwaitingThePen<Tip>

    init(capacity: Int = PredictionConstants.tipsAwaitingCapacity) {
        tips = TipsAwaitingThePen(capacity: capacity)
    }

    /// Forgets predictions not yet scored (a contact change or a reset); keeps what was learned.
    mutating func dropPending() { tips.forget() }

    func scale(travel: Double) -> Double { Self.floor + travel }

    func expectedError(travel: Double) -> Double { errorRatio * scale(travel: travel) }

    /// Probability that the force falls below `threshold` within `horizon` seconds, given the
    /// force predicted then.
    func liftProbability(predictedForce: Double, threshold: Double, horizon: Double) -> Double {
        let spread = max(forceSpreadSquared.squareRoot(), Self.minimumForceSpread) * max(horizon, 0.001)
        return 0.5 * erfc((predictedForce - threshold) / (spread * 2.0.squareRoot()))
    }

    /// Keeps a prediction to score once the real pen reaches `target`.
    mutating func record(target: UInt64, x: Double, y: Double, pressure: Double, travel: Double, horizon: Double) {
        if let newest = tips.newestTarget, target <= newest { return }
        tips.keep(Tip(x: x, y: y, pressure: pressure, scale: scale(travel: travel), horizon: horizon), until: target)
    }

    /// Takes the newest real sample (x, y, pressure) and scores every prediction whose time it
    /// has reached, against the real path interpolated between the previous sample and this one.
    mutating func observe(time: UInt64, real: SIMD3<Double>) {
        tips.observe(time: time, real: real)
        while let (p, real) = tips.reached() {
            let dx = p.x - real.x
            let dy = p.y - real.y
            let dp = p.pressure - real.z
            learn(ratio: (dx * dx + dy * dy).squareRoot() / p.scale, forceError: dp, horizon: p.horizon)
        }
    }

    private mutating func learn(ratio: Double, forceError: Double, horizon: Double) {
        guard ratio.isFinite, forceError.isFinite, horizon > 0 else { return }
        // At equilibrium P(ratio > quantile) = 1 − coverage.
        errorRatio *= exp(Self.rate * ((ratio > errorRatio ? 1 : 0) - (1 - Self.coverage)))
        let perSecond = forceError / horizon
        forceSpreadSquared += (perSecond * perSecond - forceSpreadSquared) * Self.rate
        scored += 1
    }
}
