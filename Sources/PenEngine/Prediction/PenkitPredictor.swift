import Foundation

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
public struct PenkitPredictor: Predictor {
    /// Every tunable, with its unit; checked once by `validated()` (`init(parameters:)` calls it).
    public struct Parameters: Sendable, Hashable {
        /// History fitted.
        public var window: Duration = .milliseconds(100)
        /// Age at which a sample's weight has fallen to 1/e.
        public var decay: Duration = .milliseconds(7)
        /// The same for smoothed samples fitted through libinput's filter (`.model`): each
        /// already averages four raw positions, so it weighs more of the past than a raw one.
        /// Chosen from 7, 4, 3 and 2.5 ms on the shared traces (in-sample; docs/prediction.md).
        public var smoothedDecay: Duration = .milliseconds(3)
        /// Share of the fitted change of speed kept (0: constant speed).
        public var tangentialGain = 0.0
        /// Share of the fitted turn rate kept.
        public var turnGain = 0.5
        /// Largest turn (radians) the arc may make over any horizon.
        public var maxTurnRadians = 0.8
        /// Share of the extrapolated travel kept.
        public var travelGain = 0.9
        /// Time after a stroke starts over which predictions grow to full length (0: at once).
        public var ramp: Duration = .milliseconds(40)
        /// Fit against evenly spaced times instead of the timestamps.
        public var uniformTime = true
        /// Gain of the force and orientation trend.
        public var attributeGain = 0.75
        /// Time constant of an exponential filter on the fitted velocity and acceleration
        /// across real samples: it damps how much the prediction changes from frame to frame
        /// (jitter), at the cost of following changes of speed that much later. 0: no filter.
        /// A time, not a count of samples, so it means the same at every report rate. 8 ms: chosen by
        /// `penkit bench predict-tune --structural --no-worse` from 0, 4, 8 and 16 ms, the same
        /// choice with any one trace left out (docs/prediction.md).
        public var motionSmoothing: Duration = .milliseconds(8)
        /// Speed (mm/s) at which that time constant has halved, as a 1€ filter's cutoff rises
        /// with speed: slow pens, whose velocity estimates are mostly noise, are smoothed most,
        /// fast ones, whose changes of speed cost most when followed late, least. 0: constant.
        public var motionSmoothingSpeedMMPerSecond = 0.0
        /// Fitted acceleration (mm/s²) at which that time constant has halved, as a 1€ filter's
        /// cutoff rises with the rate of change of what it filters (here the velocity): a
        /// steady pen's velocity estimates are smoothed most, a change of speed or direction
        /// is followed at once. 0: constant.
        public var motionSmoothingAccelerationMMPerSecondSquared = 0.0
        /// Start raw samples' predictions from the fitted position, as smoothed samples' always
        /// do, instead of from the newest sample itself (which carries the pen's and the
        /// sensor's noise into every prediction).
        public var rawOriginFromFit = false
        /// Mix several readings of the fitted motion (straight, half and full turn, full turn
        /// with a change of speed) by their own errors in this proximity, scored this far ahead
        /// (`MotionModelMixture`), instead of the one reading `turnGain` and `tangentialGain`
        /// give. 0: no mixture.
        public var modelScoringLookahead: Duration = .zero
        /// Time constant over which the mixture forgets a reading's past errors.
        public var modelMemory: Duration = .milliseconds(50)
        /// Power of the inverse mean squared errors that weigh the readings (1: Bates–Granger;
        /// higher favours the best reading more).
        public var modelWeightPower = 1.0
        /// Lower cutoff (Hz) of a 1€ filter on the predicted displacement `dampingLookahead`
        /// ahead; 0: no damping. The filter's correction is spread over any horizon in
        /// proportion to how far ahead a sample lies.
        public var dampingMinCutoff = 0.0
        /// How fast the cutoff rises with how fast that displacement changes (Hz per mm/s).
        public var dampingBeta = 0.0
        public var dampingLookahead: Duration = .milliseconds(16)
        public init() {}
    }

    /// The parameters' times in seconds, converted once at init: the per-sample path does no
    /// `Duration` arithmetic.
    private struct Seconds: Sendable {
        let window, decay, smoothedDecay, ramp, motionSmoothing, modelScoringLookahead, modelMemory: Double

        init(_ p: Parameters) {
            window = p.window.inSeconds
            decay = p.decay.inSeconds
            smoothedDecay = p.smoothedDecay.inSeconds
            ramp = p.ramp.inSeconds
            motionSmoothing = p.motionSmoothing.inSeconds
            modelScoringLookahead = p.modelScoringLookahead.inSeconds
            modelMemory = p.modelMemory.inSeconds
        }
    }

    public let parameters: Parameters
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
    /// The readings' weights and the states they are scored from; nil without a mixture.
    private var mixture: MotionModelMixture?
    private var dampedOffset: SIMD2<Double>?
    private var dampedTime: UInt64 = 0
    private var dampingCorrection = SIMD2<Double>(0, 0)

    /// penkit's predictor as shipped (its defaults are checked by a test).
    public init() {
        self.init(checked: Parameters())
    }

    /// penkit's predictor with other parameters, or the first one out of its range.
    public init(parameters: Parameters) throws(PredictorParametersError) {
        self.init(checked: try parameters.validated())
    }

    private init(checked parameters: Parameters) {
        self.parameters = parameters
        seconds = Seconds(parameters)
        if seconds.modelScoringLookahead > 0 {
            // Room for states twice the lookahead old at the fastest report rate believed.
            let capacity = Int((2 * seconds.modelScoringLookahead / ReportInterval.minimum).rounded(.up)) + 2
            mixture = MotionModelMixture(lookahead: seconds.modelScoringLookahead, memory: seconds.modelMemory,
                                         power: parameters.modelWeightPower, capacity: capacity)
        }
    }

    public var name: String { "penkit" }

    public mutating func reset() {
        history.removeAll()
        startTime = nil
        fit = nil
        attributeReference = nil
        motionTime = nil
        mixture?.reset()
        dampedOffset = nil
        dampingCorrection = SIMD2(0, 0)
    }

    /// The motion before a pen-down (or a lift) carries on: the hand was already moving.
    public mutating func contactChanged() {}

    public mutating func update(_ sample: PredictionSample) {
        history.append(sample)
        if startTime == nil { startTime = sample.time }
        let decay = sample.smoothingWindow > 1 ? seconds.smoothedDecay : seconds.decay
        fit = PolynomialFit.fit(history, maxSamples: history.capacity, window: seconds.window, degree: 2,
                                uniformTime: parameters.uniformTime, weight: { age in exp(-age / decay) })
        attributeReference = AttributeTrend.reference(in: history)
        smoothMotion(at: sample.time)
        if mixture != nil, let state = motionState() {
            let gains = self.gains
            mixture?.record(state, position: SIMD2(sample.x, sample.y), gains: gains)
        }
        if parameters.dampingMinCutoff > 0, let state = motionState() {
            let lookahead = parameters.dampingLookahead.inSeconds
            let offset = mixture?.offset(of: state, by: lookahead, gains: gains) ?? state.offset(by: lookahead, gains: gains)
            var damped = offset
            if let previous = dampedOffset, state.time > dampedTime {
                let dt = Double(state.time - dampedTime) * 1e-6
                let change = offset - previous
                let rate = (change * change).sum().squareRoot() / dt
                let cutoff = parameters.dampingMinCutoff + parameters.dampingBeta * rate
                let alpha = 1 / (1 + 1 / (2 * Double.pi * cutoff * dt))
                damped = previous + change * alpha
            }
            dampedOffset = damped
            dampedTime = state.time
            dampingCorrection = (damped - offset) / lookahead
        }
    }

    private var gains: MotionState.Gains {
        MotionState.Gains(travel: parameters.travelGain, turn: parameters.turnGain,
                          tangential: parameters.tangentialGain, maxTurnRadians: parameters.maxTurnRadians)
    }

    /// Where extrapolation starts from the newest sample, and with what motion.
    private func motionState() -> MotionState? {
        guard let newest = history.last, let fit else { return nil }
        // A smoothed sample lags the pen: start from the fitted raw path's position instead.
        let origin = newest.smoothingWindow > 1 || parameters.rawOriginFromFit ? fit.position : SIMD2(newest.x, newest.y)
        let age = Double(newest.time - (startTime ?? newest.time)) * 1e-6
        let ramp = seconds.ramp > 0 ? min(1, age / seconds.ramp) : 1
        return MotionState(time: newest.time, origin: origin, velocity: velocity, acceleration: acceleration, ramp: ramp)
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
        var timeConstant = seconds.motionSmoothing
        if parameters.motionSmoothingSpeedMMPerSecond > 0 {
            let speed = (velocity * velocity).sum().squareRoot()
            timeConstant /= 1 + speed / parameters.motionSmoothingSpeedMMPerSecond
        }
        if parameters.motionSmoothingAccelerationMMPerSecondSquared > 0 {
            let a = fit.acceleration
            timeConstant /= 1 + (a * a).sum().squareRoot() / parameters.motionSmoothingAccelerationMMPerSecondSquared
        }
        let share = 1 - exp(-Double(time - previous) * 1e-6 / timeConstant)
        velocity += (fit.velocity - velocity) * share
        acceleration += (fit.acceleration - acceleration) * share
        motionTime = time
    }

    public func extrapolate(by dt: Double) -> PredictionSample? {
        guard let newest = history.last, let state = motionState() else { return nil }
        let offset = (mixture?.offset(of: state, by: dt, gains: gains) ?? state.offset(by: dt, gains: gains))
            + dampingCorrection * dt
        var result = newest
        result.x = state.origin[0] + offset[0]
        result.y = state.origin[1] + offset[1]
        AttributeTrend.extrapolate(&result, newest: newest,
                                   reference: attributeReference, by: dt, gain: parameters.attributeGain)
        return result
    }
}
