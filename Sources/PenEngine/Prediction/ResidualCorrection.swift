#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// How far along its predicted path this pen really goes, learned online from its own realised
/// positions. The predictor's remaining error is mostly along the stroke, and how much of the
/// extrapolated travel a pen covers differs from pen to pen and hand to hand (penkit keeps 90 %
/// of it for every pen), so this part is learned per pen rather than tuned on recordings.
///
/// Each contact frame's tip at the configured horizon is kept until the real pen reaches its
/// time; the realised error along the predicted displacement is regressed on the displacement's
/// length (least squares through the origin, with exponential forgetting over `memory` seconds
/// of scored tips), which gives the share of the displacement to add (negative: to take away).
/// Two guards keep an unhelpful correction from doing harm:
/// - shrinkage: the solved share is scaled by n / (n + `shrinkCount`), n being the weight of the
///   scored tips remembered, so it grows in only as evidence arrives;
/// - a gate: each tip's correction is solved before its outcome is known, and once it is, the
///   gate learns (same forgetting) which share of those corrections would have helped most,
///   Σ residual · correction / Σ correction², clamped to [0, 1]. Corrections that do not help
///   out of sample are switched off.
///
/// Earlier versions also regressed on the pen's recent velocities (to predict speed changes):
/// that gained on the traces it was learned on and lost when left out (docs/prediction.md).
/// Fixed storage, no allocation per sample.
struct ResidualCorrection: Sendable {
    let memory: Double
    let shrinkCount: Double

    private struct Tip: Sendable {
        var tip: SIMD2<Double>
        var displacement: SIMD2<Double>
        /// The correction solved for this tip before its outcome was known (before the gate).
        var correction: SIMD2<Double>
    }

    private var tips: TipsAwaitingThePen<Tip>
    /// Forgetting sums: length², length × error along, the weight of the scored tips remembered.
    private var lengthSquared = 0.0, lengthTimesError = 0.0, evidence = 0.0
    private var learnedTime: UInt64?
    /// The share of the displacement to add, already shrunk.
    private var share = 0.0
    /// Forgetting sums of residual · correction and correction² over scored tips.
    private var residualDotCorrection = 0.0, correctionSquared = 0.0
    /// The share of the solved correction applied, in [0, 1]: 0 until corrections have shown they help.
    private(set) var gate = 0.0

    init(memory: Double, shrinkCount: Double, capacity: Int = PredictionConstants.tipsAwaitingCapacity) {
        self.memory = memory
        self.shrinkCount = shrinkCount
        tips = TipsAwaitingThePen(capacity: capacity)
    }

    var isEnabled: Bool { memory > 0 }

    /// How many predicted tips await the pen to be scored.
    var tipsAwaiting: Int { tips.waiting }

    /// A new proximity, a contact change or a gap: tips not yet scored and the previous position
    /// go; what was learned stays.
    mutating func dropMotion() { tips.forget() }

    /// Takes the newest real sample (x, y, pressure); scores every kept tip whose time it has
    /// reached, against the real path interpolated between the previous sample and this one.
    mutating func observe(time: UInt64, real: SIMD3<Double>) {
        guard isEnabled else { return }
        tips.observe(time: time, real: real)
        while let (p, real) = tips.reached() {
            learn(residual: SIMD2(real.x, real.y) - p.tip, tip: p, at: time)
        }
    }

    /// The correction for a predicted tip `displacement` from the real position `origin`; with
    /// `target`, the tip is kept to score when the real pen reaches that time.
    mutating func correction(displacement: SIMD2<Double>, origin: SIMD2<Double>, record target: UInt64?) -> SIMD2<Double> {
        guard isEnabled else { return .zero }
        let solved = displacement * share
        // One tip per target time, as PredictionCalibration keeps them: a second one for the
        // same frame would count its outcome twice.
        if let target, tips.newestTarget.map({ target > $0 }) ?? true {
            tips.keep(Tip(tip: origin + displacement, displacement: displacement, correction: solved), until: target)
        }
        return solved * gate
    }

    private mutating func learn(residual: SIMD2<Double>, tip p: Tip, at time: UInt64) {
        let forget = learnedTime.map { time > $0 ? exp(-Double(time - $0) * 1e-6 / memory) : 1 } ?? 1
        learnedTime = time
        // Judged before the share learns from this tip: each correction is scored out of sample.
        residualDotCorrection = residualDotCorrection * forget + (residual * p.correction).sum()
        correctionSquared = correctionSquared * forget + (p.correction * p.correction).sum()
        gate = correctionSquared > 0 ? clamp(residualDotCorrection / correctionSquared, 0, 1) : 0
        // Projecting on the displacement itself: length × error along = displacement · residual.
        lengthSquared = lengthSquared * forget + (p.displacement * p.displacement).sum()
        lengthTimesError = lengthTimesError * forget + (p.displacement * residual).sum()
        evidence = evidence * forget + 1
        share = lengthSquared > 0 ? lengthTimesError / lengthSquared * evidence / (evidence + shrinkCount) : 0
    }
}
