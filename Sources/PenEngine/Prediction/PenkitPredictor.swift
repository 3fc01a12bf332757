#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// penkit's default predictor.
///
/// - Velocity and acceleration come from a weighted quadratic least-squares fit of the
///   recent samples placed at evenly spaced times. Tablets sample at a fixed rate but their
///   timestamps carry USB polling jitter (an Intuos4 reports 3 and 8 ms apart with the same
///   travel per report); fitting against raw timestamps turns that jitter into velocity
///   noise, which is why the two-sample linear predictor blows up on closely spaced reports.
/// - It extrapolates in the pen's own frame: distance along the direction of travel, and a
///   damped turn rate bending the path into a circular arc, which follows curves without the
///   runaway of a raw acceleration term.
/// - It keeps slightly less than the full extrapolated travel (shrinkage: the velocity is an
///   estimate, and overshoot is as visible as lag), and grows predictions in over the first
///   milliseconds of a stroke, when velocity estimates swing from frame to frame.
/// Parameters were chosen on the shared traces; see docs/prediction.md.
///
/// The product runs it as `PenkitPredictor` (`ShippedPenkitTuning`); the lab's variants of the
/// same arithmetic (PenEvaluation's `ExperimentalPenkitTuning`) plug in through `Tuning`.
package typealias PenkitPredictor = TunedPenkitPredictor<ShippedPenkitTuning>

/// Every tunable of penkit's predictor, with its unit; checked once by `validated()`
/// (`init(parameters:)` calls it).
package struct PenkitPredictorParameters: Sendable, Hashable {
    /// History fitted.
    package var window: Duration = .milliseconds(100)
    /// Age at which a sample's weight has fallen to 1/e. 4 ms: a short fit follows changes
    /// of speed with little lag; its noise is damped after extrapolation, by the stage's
    /// output damping (PredictionConfiguration). Chosen from 4, 5 and 7 ms together with
    /// that damping, leave one trace out (`penkit bench predict-tune --motion`; docs/prediction.md).
    package var decay: Duration = .milliseconds(4)
    /// Share of the fitted turn rate kept.
    package var turnGain = 0.5
    /// Largest turn (radians) the arc may make over any horizon.
    package var maxTurnRadians = 0.8
    /// Share of the extrapolated travel kept.
    package var travelGain = 0.9
    /// Time after a stroke starts over which predictions grow to full length (0: at once).
    package var ramp: Duration = .milliseconds(40)
    /// Fit against evenly spaced times instead of the timestamps.
    package var uniformTime = true
    /// Gain of the force and orientation trend.
    package var attributeGain = 0.75
    /// Time constant of an exponential filter on the fitted velocity and acceleration
    /// across real samples: it damps how much the prediction changes from frame to frame
    /// (jitter), at the cost of following changes of speed that much later. 0: no filter.
    /// A time, not a count of samples, so it means the same at every report rate. 8 ms: chosen by
    /// `penkit bench predict-tune --structural --no-worse` from 0, 4, 8 and 16 ms, the same
    /// choice with any one trace left out (docs/prediction.md).
    package var motionSmoothing: Duration = .milliseconds(8)
    package init() {}
}

/// penkit's predictor with the values of the lab's knobs that `Tuning` gives.
package struct TunedPenkitPredictor<Tuning: PenkitTuning>: Predictor {
    package typealias Parameters = PenkitPredictorParameters

    /// The parameters' times in seconds, converted once at init: the per-sample path does no
    /// `Duration` arithmetic.
    private struct Seconds: Sendable {
        let window, decay, ramp, motionSmoothing: Double

        init(_ p: Parameters) {
            window = p.window.inSeconds
            decay = p.decay.inSeconds
            ramp = p.ramp.inSeconds
            motionSmoothing = p.motionSmoothing.inSeconds
        }
    }

    package let parameters: Parameters
    package let tuning: Tuning
    private let seconds: Seconds
    private var history = SampleHistory(capacity: 32)
    private var startTime: UInt64?
    /// Fitted once per real sample, so each predicted sample costs only the arc.
    private var fit: PolynomialFit?
    private var attributeReference: PredictionSample?
    /// The fit's velocity and acceleration after `motionSmoothing`.
    private var velocity = SIMD2<Double>(0, 0)
    private var acceleration = SIMD2<Double>(0, 0)
    private var motionTime: UInt64?

    /// penkit's predictor with its tuning's defaults (as shipped: the defaults are checked by a test).
    package init() {
        self.init(checked: Parameters(), tuning: Tuning())
    }

    /// penkit's predictor with other parameters, or the first one out of its range.
    package init(parameters: Parameters) throws(ParameterError) {
        try self.init(parameters: parameters, tuning: Tuning())
    }

    /// penkit's predictor with these parameters and tuning, or the first value out of its range.
    package init(parameters: Parameters, tuning: Tuning) throws(ParameterError) {
        self.init(checked: try parameters.validated(), tuning: try tuning.validated())
    }

    private init(checked parameters: Parameters, tuning: Tuning) {
        self.parameters = parameters
        self.tuning = tuning
        seconds = Seconds(parameters)
    }

    package var name: String { "penkit" }

    package mutating func reset() {
        history.removeAll()
        startTime = nil
        fit = nil
        attributeReference = nil
        motionTime = nil
    }

    /// The motion before a pen-down (or a lift) carries on: the hand was already moving.
    package mutating func contactChanged() {}

    package mutating func update(_ sample: PredictionSample) {
        history.append(sample)
        if startTime == nil { startTime = sample.time }
        let decay = tuning.fitDecay(for: sample, decay: seconds.decay)
        fit = PolynomialFit.fit(history, maxSamples: history.capacity, window: seconds.window, degree: 2,
                                uniformTime: parameters.uniformTime, weight: { age in exp(-age / decay) },
                                basis: tuning.basis)
        attributeReference = AttributeTrend.reference(in: history)
        smoothMotion(at: sample.time)
    }

    /// Moves `velocity` and `acceleration` towards the new fit's by the share of
    /// `motionSmoothing` that has elapsed since the last fit (all the way without smoothing).
    private mutating func smoothMotion(at time: UInt64) {
        guard let fit else {
            motionTime = nil
            return
        }
        guard seconds.motionSmoothing > 0, let previous = motionTime, time > previous else {
            velocity = fit.velocity
            acceleration = fit.acceleration
            motionTime = time
            return
        }
        let timeConstant = tuning.motionTimeConstant(seconds.motionSmoothing, velocity: velocity)
        let share = 1 - exp(-Double(time - previous) * 1e-6 / timeConstant)
        velocity += (fit.velocity - velocity) * share
        acceleration += (fit.acceleration - acceleration) * share
        motionTime = time
    }

    package func extrapolate(by dt: Double) -> PredictionSample? {
        let p = parameters
        guard let newest = history.last, let fit else { return nil }
        let v = velocity
        let speed = (v * v).sum().squareRoot()
        var result = newest
        let origin = tuning.startsFromFit(newest) ? fit.position : SIMD2(newest.x, newest.y)
        result.x = origin[0]
        result.y = origin[1]
        if speed > 1e-6 {
            let a = acceleration
            let tangent = v / speed
            let normal = SIMD2(-tangent[1], tangent[0])
            let tangential = (a * tangent).sum() * tuning.tangentialGain
            let turnRate = (a * normal).sum() / speed * p.turnGain
            // A pen slowing down stops; it never runs backwards.
            let moving = tangential < 0 ? min(dt, speed / -tangential) : dt
            let age = Double(newest.time - (startTime ?? newest.time)) * 1e-6
            let ramp = seconds.ramp > 0 ? min(1, age / seconds.ramp) : 1
            let travel = ramp * p.travelGain * max(0, speed * moving + 0.5 * tangential * moving * moving)
            let turn = clamp(turnRate * dt, -p.maxTurnRadians, p.maxTurnRadians)
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
            result.x = origin[0] + tangent[0] * along + normal[0] * across
            result.y = origin[1] + tangent[1] * along + normal[1] * across
        }
        AttributeTrend.extrapolate(&result, newest: newest,
                                   reference: attributeReference, by: dt, gain: p.attributeGain)
        return result
    }
}
