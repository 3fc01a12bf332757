import Foundation

/// A linear correction of the predicted tip learned online from this pen's own realised
/// positions: the predictor's remaining error is mostly along the stroke (changes of speed),
/// and how a pen's speed carries on from its recent history differs from pen to pen and hand
/// to hand, so it is learned here rather than tuned on recordings.
///
/// Each contact frame's tip at the configured horizon is kept with its features until the
/// real pen reaches its time; the realised residual (real position − tip), split along and
/// across the predicted direction of travel, is regressed on the same three features per
/// axis, each projected on that axis: the predicted displacement, and the real pen's velocity
/// over the last two and the two reports before those (times the horizon). Together the
/// velocities say whether the pen is speeding up or slowing down. The sums are weighted least
/// squares with exponential forgetting over `memory` seconds of scored predictions, with a
/// small ridge for features that carry nothing (the displacement has no across component);
/// the solved correction is shrunk toward zero by n / (n + `shrinkCount`), n being the
/// weight of the scored predictions remembered, so it grows in only as evidence arrives.
/// Fixed storage, no allocation per sample.
struct ResidualCorrection: Sendable {
    /// Reports each velocity feature spans.
    static let span = 3
    /// How many recent real positions are kept for the velocity features.
    static let positions = 2 * span + 1
    /// Ridge, relative to the mean diagonal of the normal matrix.
    static let ridge = 1e-3

    let memory: Double
    let shrinkCount: Double

    private struct Pending: Sendable {
        var target: UInt64
        var tip: SIMD2<Double>
        var tangent: SIMD2<Double>
        var along: SIMD3<Double>
        var across: SIMD3<Double>
        /// The correction solved for this tip before its outcome was known (before the gate).
        var correction: SIMD2<Double>
    }

    private var pending: [Pending]
    private var pendingHead = 0
    private var pendingCount = 0
    /// The newest real positions (recovered raw), newest last, and the time of the newest.
    private var recent: [SIMD2<Double>]
    private var recentCount = 0
    private var previousTime: UInt64 = 0
    private var previousPosition = SIMD2<Double>(0, 0)
    /// Forgetting sums of the along and across regressions, and the weight they hold.
    private var alongMatrix = NormalMatrix(), acrossMatrix = NormalMatrix()
    private var alongTarget = SIMD3<Double>(), acrossTarget = SIMD3<Double>()
    private var evidence = 0.0
    private var learnedTime: UInt64?
    /// The solved weights, already shrunk.
    private var alongWeights = SIMD3<Double>(), acrossWeights = SIMD3<Double>()
    /// Forgetting sums of residual · correction and correction · correction over scored tips:
    /// their ratio is the share of the solved correction that would have helped most.
    private var residualDotCorrection = 0.0, correctionSquared = 0.0
    /// That share in [0, 1]: 0 until corrections have shown they help.
    private(set) var gate = 0.0

    init(memory: Double, shrinkCount: Double, capacity: Int = 64) {
        self.memory = memory
        self.shrinkCount = shrinkCount
        pending = Array(repeating: Pending(target: 0, tip: .zero, tangent: .zero, along: .zero, across: .zero,
                                            correction: .zero),
                        count: capacity)
        recent = Array(repeating: .zero, count: Self.positions)
    }

    var isEnabled: Bool { memory > 0 }

    /// A new proximity or a contact change: the motion history and the pending tips go; what
    /// was learned stays.
    mutating func dropMotion() {
        pendingCount = 0
        recentCount = 0
    }

    /// Takes the newest real position; scores every kept tip whose time it has reached.
    mutating func observe(time: UInt64, position: SIMD2<Double>) {
        guard isEnabled else { return }
        let hadPrevious = recentCount > 0
        while pendingCount > 0 {
            let p = pending[pendingHead]
            guard p.target <= time else { break }
            pendingHead = (pendingHead + 1) % pending.count
            pendingCount -= 1
            guard hadPrevious, p.target >= previousTime, time > previousTime else { continue }
            let f = Double(p.target - previousTime) / Double(time - previousTime)
            let real = previousPosition + (position - previousPosition) * f
            learn(residual: real - p.tip, pending: p, at: time)
        }
        if recentCount == Self.positions {
            for i in 1..<Self.positions { recent[i - 1] = recent[i] }
            recentCount -= 1
        }
        recent[recentCount] = position
        recentCount += 1
        previousTime = time
        previousPosition = position
    }

    /// The correction for a tip `displacement` from the newest real position, `horizon` seconds
    /// ahead, with reports `step` seconds apart; nil before there is history to say anything.
    /// With `record`, the tip (`origin` + displacement) is kept to score at `target`.
    mutating func correction(displacement: SIMD2<Double>, horizon: Double, step: Double,
                             record target: UInt64?, origin: SIMD2<Double>) -> SIMD2<Double> {
        guard isEnabled, recentCount == Self.positions, step > 0, horizon > 0 else { return .zero }
        let newest = recent[Self.positions - 1], middle = recent[Self.span], oldest = recent[0]
        let recentVelocity = (newest - middle) / (Double(Self.span) * step) * horizon
        let earlierVelocity = (middle - oldest) / (Double(Self.span) * step) * horizon
        let length = (displacement * displacement).sum().squareRoot()
        let speed = (recentVelocity * recentVelocity).sum().squareRoot()
        guard length > 1e-6 || speed > 1e-6 else { return .zero }
        let tangent = length > 1e-6 ? displacement / length : recentVelocity / speed
        let normal = SIMD2(-tangent[1], tangent[0])
        func features(_ axis: SIMD2<Double>) -> SIMD3<Double> {
            SIMD3((displacement * axis).sum(), (recentVelocity * axis).sum(), (earlierVelocity * axis).sum())
        }
        let along = features(tangent), across = features(normal)
        if let target {
            if pendingCount == pending.count {
                pendingHead = (pendingHead + 1) % pending.count
                pendingCount -= 1
            }
        }
        let solved = tangent * (alongWeights * along).sum() + normal * (acrossWeights * across).sum()
        if let target {
            pending[(pendingHead + pendingCount) % pending.count] =
                Pending(target: target, tip: origin + displacement, tangent: tangent, along: along, across: across,
                        correction: solved)
            pendingCount += 1
        }
        return solved * gate
    }

    private mutating func learn(residual: SIMD2<Double>, pending p: Pending, at time: UInt64) {
        let forget = learnedTime.map { time > $0 ? exp(-Double(time - $0) * 1e-6 / memory) : 1 } ?? 1
        learnedTime = time
        alongMatrix.scale(by: forget)
        acrossMatrix.scale(by: forget)
        alongTarget *= forget
        acrossTarget *= forget
        evidence = evidence * forget + 1
        // Scored before the weights learn from this tip: each correction is judged out of sample.
        residualDotCorrection = residualDotCorrection * forget + (residual * p.correction).sum()
        correctionSquared = correctionSquared * forget + (p.correction * p.correction).sum()
        gate = correctionSquared > 0 ? clamp(residualDotCorrection / correctionSquared, 0, 1) : 0
        let normal = SIMD2(-p.tangent[1], p.tangent[0])
        alongMatrix.add(p.along, weight: 1)
        acrossMatrix.add(p.across, weight: 1)
        alongTarget += p.along * (residual * p.tangent).sum()
        acrossTarget += p.across * (residual * normal).sum()
        let shrink = evidence / (evidence + shrinkCount)
        alongWeights = (alongMatrix.ridgeSolve(alongTarget, ridge: Self.ridge) ?? .zero) * shrink
        acrossWeights = (acrossMatrix.ridgeSolve(acrossTarget, ridge: Self.ridge) ?? .zero) * shrink
    }
}
