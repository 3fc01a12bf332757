import PenEngine

/// A constant-jerk Kalman filter on one axis, stepping one sample at a time (dt = 1 sample),
/// as ink-stroke-modeler's axis predictor does; the caller rescales by the report interval.
struct JerkKalmanAxis: Sendable {
    /// Position, velocity, acceleration, jerk (per sample, per sample², ...).
    private(set) var state = SIMD4<Double>(0, 0, 0, 0)
    /// Covariance, one row per SIMD4.
    private var p0 = SIMD4<Double>(1, 0, 0, 0), p1 = SIMD4<Double>(0, 1, 0, 0)
    private var p2 = SIMD4<Double>(0, 0, 1, 0), p3 = SIMD4<Double>(0, 0, 0, 1)
    private(set) var iterations = 0
    let processNoise: Double
    let measurementNoise: Double

    init(processNoise: Double, measurementNoise: Double) {
        self.processNoise = processNoise
        self.measurementNoise = measurementNoise
    }

    mutating func reset() { self = JerkKalmanAxis(processNoise: processNoise, measurementNoise: measurementNoise) }

    mutating func update(_ observation: Double) {
        defer { iterations += 1 }
        if iterations == 0 {
            state = SIMD4(observation, 0, 0, 0)
            return
        }
        // Predict: x ← F x, P ← F P Fᵀ + Q, with F the constant-jerk step and Q = q·g gᵀ
        // for a random jerk impulse g = (1/6, 1/2, 1, 1).
        state = Self.step(state)
        let fp0 = Self.step(SIMD4(p0[0], p1[0], p2[0], p3[0]))
        let fp1 = Self.step(SIMD4(p0[1], p1[1], p2[1], p3[1]))
        let fp2 = Self.step(SIMD4(p0[2], p1[2], p2[2], p3[2]))
        let fp3 = Self.step(SIMD4(p0[3], p1[3], p2[3], p3[3]))
        // (F P) has columns fp0...fp3; F P Fᵀ = F (F P)ᵀ.
        let g = SIMD4<Double>(1.0 / 6, 0.5, 1, 1)
        p0 = Self.step(SIMD4(fp0[0], fp1[0], fp2[0], fp3[0])) + processNoise * g[0] * g
        p1 = Self.step(SIMD4(fp0[1], fp1[1], fp2[1], fp3[1])) + processNoise * g[1] * g
        p2 = Self.step(SIMD4(fp0[2], fp1[2], fp2[2], fp3[2])) + processNoise * g[2] * g
        p3 = Self.step(SIMD4(fp0[3], fp1[3], fp2[3], fp3[3])) + processNoise * g[3] * g
        // Correct with the position measurement (H = [1 0 0 0]).
        let column = SIMD4(p0[0], p1[0], p2[0], p3[0])
        let gain = column / (p0[0] + measurementNoise)
        state += gain * (observation - state[0])
        let row = p0
        p0 -= gain[0] * row; p1 -= gain[1] * row; p2 -= gain[2] * row; p3 -= gain[3] * row
    }

    private static func step(_ v: SIMD4<Double>) -> SIMD4<Double> {
        SIMD4(v[0] + v[1] + v[2] / 2 + v[3] / 6, v[1] + v[2] + v[3] / 2, v[2] + v[3], v[3])
    }
}

/// The Kalman predictor of ink-stroke-modeler and androidx: position, velocity, acceleration
/// and jerk per axis, extrapolated as a cubic with damped acceleration and jerk, over a
/// horizon shortened by a confidence built from sample count, distance from the last input,
/// speed and linearity. Parameters are ink-stroke-modeler's, converted to mm.
package struct KalmanPredictor: Predictor {
    /// Every tunable, with its unit where it has one; checked once by `validated()`.
    package struct Parameters: Sendable, Hashable {
        /// Variance of the random jerk impulse added at each sample step.
        package var processNoise = 0.01
        /// Variance of a position report (mm²).
        package var measurementNoise = 0.1
        /// Samples taken before the filter predicts at all.
        package var minStableIterations = 4
        /// Samples averaged for the report interval that rescales the per-sample state.
        package var maxTimeSamples = 20
        /// Shares of the filtered acceleration and jerk kept in the extrapolation.
        package var accelerationWeight = 0.5
        package var jerkWeight = 0.1
        /// Samples after which the sample count no longer lowers the confidence.
        package var desiredSampleCount = 20
        /// mm between the last input and the filtered position at which confidence is 0.
        package var maxEstimationDistanceMM = 1.5
        /// mm/s over the horizon: confidence 0 below the first, 1 above the second.
        package var minTravelSpeedMMPerSecond = 10.0
        package var maxTravelSpeedMMPerSecond = 50.0
        /// mm between the cubic and the linear prediction at which linearity bottoms out.
        package var maxLinearDeviationMM = 1.0
        /// Linearity's share of the confidence however curved the prediction (0 to 1).
        package var baselineLinearityConfidence = 0.4
        package init() {}
    }

    package let parameters: Parameters
    private var xAxis: JerkKalmanAxis
    private var yAxis: JerkKalmanAxis
    private var history: SampleHistory

    /// The filter with ink-stroke-modeler's parameters (its defaults are checked by a test).
    package init() { self.init(checked: Parameters()) }

    /// The filter with other parameters, or the first one out of its range.
    package init(parameters: Parameters) throws(ParameterError) { self.init(checked: try parameters.validated()) }

    private init(checked parameters: Parameters) {
        self.parameters = parameters
        xAxis = JerkKalmanAxis(processNoise: parameters.processNoise, measurementNoise: parameters.measurementNoise)
        yAxis = xAxis
        history = SampleHistory(capacity: parameters.maxTimeSamples)
    }

    package var name: String { "kalman" }

    package mutating func reset() {
        xAxis.reset()
        yAxis.reset()
        history.removeAll()
    }

    package mutating func update(_ sample: PredictionSample) {
        xAxis.update(sample.x)
        yAxis.update(sample.y)
        history.append(sample)
    }

    /// Per-axis (position, velocity, acceleration, jerk) in mm and seconds, damped.
    private func state() -> (x: SIMD4<Double>, y: SIMD4<Double>)? {
        guard xAxis.iterations >= parameters.minStableIterations, history.count >= 2 else { return nil }
        let span = Double(history[fromEnd: 0].time - history[fromEnd: history.count - 1].time) * 1e-6
        // ink-stroke-modeler divides the span by the sample count, which overstates every
        // velocity by n/(n-1) (5 % with its 20 samples); the interval count is right.
        let dt = span / Double(history.count - 1)
        guard dt > 0 else { return nil }
        let scale = SIMD4<Double>(1, 1 / dt, parameters.accelerationWeight / (dt * dt),
                                  parameters.jerkWeight / (dt * dt * dt))
        return (xAxis.state * scale, yAxis.state * scale)
    }

    private static func cubic(_ s: SIMD4<Double>, _ t: Double) -> Double {
        s[0] + s[1] * t + s[2] * t * t / 2 + s[3] * t * t * t / 6
    }

    package func extrapolate(by dt: Double) -> PredictionSample? {
        guard let (sx, sy) = state(), let newest = history.last else { return nil }
        var result = newest
        result.x = Self.cubic(sx, dt)
        result.y = Self.cubic(sy, dt)
        AttributeTrend.extrapolate(&result, newest: newest,
                                   reference: AttributeTrend.reference(in: history), by: dt)
        return result
    }

    package func confidence(forHorizon horizon: Double) -> Double {
        guard let (sx, sy) = state(), let newest = history.last, horizon > 0 else { return 0 }
        let p = parameters
        let sampleRatio = min(1, Double(xAxis.iterations) / Double(p.desiredSampleCount))
        let estimateError = distance(newest.x - sx[0], newest.y - sy[0])
        let errorConfidence = 1 - normalize(estimateError, 0, p.maxEstimationDistanceMM)
        let endX = Self.cubic(sx, horizon), endY = Self.cubic(sy, horizon)
        let travelSpeed = distance(endX - sx[0], endY - sy[0]) / horizon
        let speedConfidence = normalize(travelSpeed, p.minTravelSpeedMMPerSecond, p.maxTravelSpeedMMPerSecond)
        let deviation = distance(endX - (sx[0] + sx[1] * horizon), endY - (sy[0] + sy[1] * horizon))
        let linearity = p.baselineLinearityConfidence
            + (1 - p.baselineLinearityConfidence) * (1 - normalize(deviation, 0, p.maxLinearDeviationMM))
        return sampleRatio * errorConfidence * speedConfidence * linearity
    }
}

extension KalmanPredictor.Parameters {
    /// Bounds the sample counts, each of which sizes storage or a loop.
    package static let largestCount = 1_000

    /// These parameters, or the first one out of its range. Nothing is clamped later.
    package func validated() throws(ParameterError) -> Self {
        let check = ParameterCheck(owner: "kalman")
        try check.number("processNoise", processNoise, over: 0)
        try check.number("measurementNoise", measurementNoise, over: 0)
        try check.count("minStableIterations", minStableIterations, from: 1, to: Self.largestCount)
        try check.count("maxTimeSamples", maxTimeSamples, from: 2, to: Self.largestCount)
        try check.number("accelerationWeight", accelerationWeight, from: 0, to: 1)
        try check.number("jerkWeight", jerkWeight, from: 0, to: 1)
        try check.count("desiredSampleCount", desiredSampleCount, from: 1, to: Self.largestCount)
        try check.number("maxEstimationDistanceMM", maxEstimationDistanceMM, over: 0, unit: " mm")
        try check.number("minTravelSpeedMMPerSecond", minTravelSpeedMMPerSecond, from: 0, to: 10_000, unit: " mm/s")
        try check.number("maxTravelSpeedMMPerSecond", maxTravelSpeedMMPerSecond,
                         from: minTravelSpeedMMPerSecond, to: 10_000, unit: " mm/s (from minTravelSpeedMMPerSecond)")
        try check.number("maxLinearDeviationMM", maxLinearDeviationMM, over: 0, unit: " mm")
        try check.number("baselineLinearityConfidence", baselineLinearityConfidence, from: 0, to: 1)
        return self
    }
}

/// Maps value from [low, high] to [0, 1], clamped.
@inline(__always)
func normalize(_ value: Double, _ low: Double, _ high: Double) -> Double {
    high > low ? clamp((value - low) / (high - low), 0, 1) : (value >= high ? 1 : 0)
}
