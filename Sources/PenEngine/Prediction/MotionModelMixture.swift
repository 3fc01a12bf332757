import Foundation

/// Several readings of the same fitted motion, weighed by how each has predicted this
/// proximity so far: constant velocity (a straight line), half the fitted turn rate, the full
/// turn rate (a constant-turn arc), and the full turn with half the fitted change of speed.
/// Pen strokes switch between straight runs, arcs and changes of speed; no one reading is best
/// throughout, and which is best now shows in their own recent errors.
///
/// Every real sample scores each reading's prediction made from an earlier state, about
/// `lookahead` ago, against the position that sample brings (the errors of a prediction can
/// only be known once the pen gets there). The weights are the inverse of each reading's
/// recent mean squared error (forgotten with time constant `memory`), raised to `power`: the
/// classic combination of forecasts by their error variances (Bates and Granger), with no
/// scale to tune. Storage is allocated once; scoring and weighing never allocate.
struct MotionModelMixture: Sendable {
    static let turnGains = SIMD4<Double>(0, 0.5, 1, 1)
    static let tangentialGains = SIMD4<Double>(0, 0, 0, 0.5)
    /// Floor of a mean squared error (mm²): two readings that both predicted perfectly weigh the same.
    static let errorFloor = 1e-4

    let lookahead: Double
    let memory: Double
    let power: Double
    /// Past states, oldest first from `head`, in a ring allocated once.
    private var past: [MotionState]
    private var head = 0
    private var count = 0
    private var meanSquaredError = SIMD4<Double>(repeating: 0)
    private var scoredTime: UInt64?
    /// Each reading's share of the prediction; equal until the first score.
    private(set) var weights = SIMD4<Double>(repeating: 0.25)

    init(lookahead: Double, memory: Double, power: Double, capacity: Int) {
        self.lookahead = lookahead
        self.memory = memory
        self.power = power
        past = Array(repeating: MotionState(), count: max(capacity, 1))
    }

    mutating func reset() {
        head = 0
        count = 0
        meanSquaredError = SIMD4(repeating: 0)
        scoredTime = nil
        weights = SIMD4(repeating: 0.25)
    }

    /// The weighted displacement `dt` seconds on from `state`.
    func offset(of state: MotionState, by dt: Double, gains: MotionState.Gains) -> SIMD2<Double> {
        var sum = SIMD2<Double>(0, 0)
        for m in 0..<4 where weights[m] > 0 {
            sum += state.offset(by: dt, gains: Self.gains(m, from: gains)) * weights[m]
        }
        return sum
    }

    /// Scores every reading against `position`, the pen's at `state.time`, then keeps `state`.
    mutating func record(_ state: MotionState, position: SIMD2<Double>, gains: MotionState.Gains) {
        if let made = madeAboutLookaheadAgo(before: state.time) {
            let dt = Double(state.time - made.time) * 1e-6
            var squared = SIMD4<Double>(repeating: 0)
            for m in 0..<4 {
                let miss = made.origin + made.offset(by: dt, gains: Self.gains(m, from: gains)) - position
                squared[m] = (miss * miss).sum()
            }
            if let previous = scoredTime, state.time > previous {
                let share = 1 - exp(-Double(state.time - previous) * 1e-6 / memory)
                meanSquaredError += (squared - meanSquaredError) * share
            } else {
                meanSquaredError = squared
            }
            scoredTime = state.time
            var inverse = SIMD4<Double>(repeating: 0)
            for m in 0..<4 { inverse[m] = pow(1 / (meanSquaredError[m] + Self.errorFloor), power) }
            weights = inverse / inverse.sum()
        }
        append(state)
    }

    private static func gains(_ model: Int, from shared: MotionState.Gains) -> MotionState.Gains {
        var gains = shared
        gains.turn = turnGains[model]
        gains.tangential = tangentialGains[model]
        return gains
    }

    /// The newest kept state at least `lookahead` older than `time`, if not more than twice that.
    private func madeAboutLookaheadAgo(before time: UInt64) -> MotionState? {
        var i = count - 1
        while i >= 0 {
            let state = past[(head + i) % past.count]
            let age = time > state.time ? Double(time - state.time) * 1e-6 : 0
            if age >= lookahead { return age <= 2 * lookahead ? state : nil }
            i -= 1
        }
        return nil
    }

    private mutating func append(_ state: MotionState) {
        past[(head + count) % past.count] = state
        if count < past.count { count += 1 } else { head = (head + 1) % past.count }
    }
}
