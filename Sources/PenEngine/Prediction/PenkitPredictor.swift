import Foundation

/// penkit's default predictor.
///
/// It works in the pen's own frame: speed along the direction of travel and the rate at
/// which that direction turns, both from a weighted quadratic fit over a fixed span of time
/// (not a fixed number of samples, so reports 1 ms apart average out instead of amplifying
/// noise). It extrapolates along a circular arc, which follows curves where a straight line
/// cuts them and, unlike a raw acceleration term, never curls back on itself. Changes of
/// speed and turn rate are damped, because hands rarely keep accelerating for long.
public struct PenkitPredictor: Predictor {
    public struct Parameters: Sendable, Hashable {
        /// Seconds of history fitted.
        public var window = 0.030
        /// Age (s) at which a sample's weight has fallen to 1/e.
        public var decay = 0.012
        /// Share of the fitted tangential acceleration kept.
        public var tangentialGain = 0.3
        /// Share of the fitted turn rate kept.
        public var turnGain = 0.8
        /// Largest turn (radians) the arc may make over any horizon.
        public var maxTurn = 0.8
        /// Weight of the fitted position versus the newest sample as the starting point.
        public var fittedAnchor = 0.0
        /// Gain of the force and orientation trend.
        public var attributeGain = 0.5
        public init() {}
    }

    public var parameters: Parameters
    private var history = SampleHistory(capacity: 16)

    public init(parameters: Parameters = .init()) {
        self.parameters = parameters
    }

    public var name: String { "penkit" }
    public mutating func reset() { history.removeAll() }
    public mutating func update(_ sample: PredictionSample) { history.append(sample) }

    public func extrapolate(by dt: Double) -> PredictionSample? {
        let p = parameters
        let decay = p.decay
        guard let newest = history.last,
              let fit = PolynomialFit.fit(history, maxSamples: history.capacity, window: p.window, degree: 2,
                                          weight: { age in exp(-age / decay) }) else { return nil }
        let v = fit.velocity
        let a = fit.acceleration
        let speed = (v * v).sum().squareRoot()
        let anchor = SIMD2(newest.x, newest.y) * (1 - p.fittedAnchor) + fit.position * p.fittedAnchor
        var result = newest
        if speed < 1e-6 {
            result.x = anchor[0]
            result.y = anchor[1]
        } else {
            let tangent = v / speed
            let normal = SIMD2(-tangent[1], tangent[0])
            let tangential = (a * tangent).sum()
            let turnRate = (a * normal).sum() / speed * p.turnGain
            // Distance along the path; never backwards, a pen slowing down stops.
            let travelTime = tangential < 0 ? min(dt, speed / (-tangential * p.tangentialGain + 1e-12)) : dt
            let travel = max(0, speed * travelTime + 0.5 * tangential * p.tangentialGain * travelTime * travelTime)
            let turn = clamp(turnRate * dt, -p.maxTurn, p.maxTurn)
            // Chord of an arc of length `travel` turning by `turn`, in the (tangent, normal) frame.
            let along: Double, across: Double
            if abs(turn) < 1e-6 {
                along = travel
                across = travel * turn / 2
            } else {
                let radius = travel / turn
                along = radius * sin(turn)
                across = radius * (1 - cos(turn))
            }
            let position = anchor + tangent * along + normal * across
            result.x = position[0]
            result.y = position[1]
        }
        AttributeTrend.extrapolate(&result, newest: newest,
                                   reference: AttributeTrend.reference(in: history, span: 0.008),
                                   by: dt, gain: p.attributeGain)
        return result
    }

    public func confidence(forHorizon horizon: Double) -> Double {
        history.count >= 3 ? 1 : 0
    }
}
