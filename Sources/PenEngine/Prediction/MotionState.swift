import Foundation

/// What the predictor extrapolates from at one real sample: where the pen is, its smoothed
/// velocity and acceleration, and how much of the travel the stroke's age lets it keep (the ramp).
struct MotionState: Sendable {
    var time: UInt64 = 0
    var origin = SIMD2<Double>(0, 0)
    var velocity = SIMD2<Double>(0, 0)
    var acceleration = SIMD2<Double>(0, 0)
    var ramp = 1.0

    /// How the extrapolation reads the motion: the shares of the travel, of the fitted turn
    /// rate and of the fitted change of speed kept, and the largest turn allowed.
    struct Gains: Sendable {
        var travel: Double
        var turn: Double
        var tangential: Double
        var maxTurnRadians: Double
    }

    /// The displacement `dt` seconds on: constant speed along the direction of travel (changed
    /// by the kept share of the fitted change of speed), bent into a circular arc by the kept
    /// share of the fitted turn rate. An arc follows curves where a line cuts them, and never
    /// curls back as a raw acceleration term can.
    func offset(by dt: Double, gains: Gains) -> SIMD2<Double> {
        let v = velocity
        let speed = (v * v).sum().squareRoot()
        guard speed > 1e-6 else { return SIMD2(0, 0) }
        let tangent = v / speed
        let normal = SIMD2(-tangent[1], tangent[0])
        let tangential = (acceleration * tangent).sum() * gains.tangential
        let turnRate = (acceleration * normal).sum() / speed * gains.turn
        // A pen slowing down stops; it never runs backwards.
        let moving = tangential < 0 ? min(dt, speed / -tangential) : dt
        let travel = ramp * gains.travel * max(0, speed * moving + 0.5 * tangential * moving * moving)
        let turn = clamp(turnRate * dt, -gains.maxTurnRadians, gains.maxTurnRadians)
        // The chord of an arc of length `travel` turning by `turn`, in the (tangent, normal) frame.
        let along: Double, across: Double
        if abs(turn) < 1e-6 {
            along = travel
            across = travel * turn / 2
        } else {
            let radius = travel / turn
            along = radius * sin(turn)
            across = radius * (1 - cos(turn))
        }
        return tangent * along + normal * across
    }
}
