/// Recovers the raw pen path from libinput's smoothed positions by estimation instead of
/// inversion: a Kalman filter whose state is the raw position, velocity and acceleration now
/// plus the raw positions still in libinput's history, and whose observation is libinput's
/// filter itself (the mean of those `window` positions) as a linear operator.
///
/// Why not invert: `SmoothingInverse`'s recursion, raw = window × smoothed − the others, has
/// its poles on the unit circle (for a 4-sample mean, at −1 and ±i: the frequencies the mean
/// removes entirely), so libinput's rounding and its unseen history pushes are never damped:
/// they pile up into oscillations of period 2 and 4 samples. Those components of the raw path
/// are unobservable from the smoothed one; the filter's motion model (white jerk) fills them
/// with the smoothest path consistent with the samples rather than with accumulated noise.
///
/// Both axes share one covariance (same model, same observation), so each sample costs one
/// gain computation. Storage is fixed at init: no allocation per sample.
package struct SmoothingRecovery: Sendable {
    package let window: Int
    /// Jerk noise density (mm²/s⁵) over observation noise (mm²) sets how smooth the path is.
    package let jerkNoise: Double
    package let observationNoise: Double
    /// State: position, velocity, acceleration, then the `window − 1` previous raw positions.
    private let size: Int
    private var x: [Double]
    private var y: [Double]
    private var covariance: [Double]
    private var scratch: [Double]
    private var gain: [Double]
    private var started = false
    /// libinput refilled its history (contact change): the next position is observed alone.
    private var historyRestarts = true

    /// Prior spread of the velocity (mm/s) and acceleration (mm/s²) at a fresh start.
    private static let initialSpeed = PredictionConstants.recoveryInitialSpeedMMPerSecond
    private static let initialAcceleration = PredictionConstants.recoveryInitialAccelerationMMPerSecondSquared

    package init(window: Int, jerkNoise: Double,
                observationNoise: Double = PredictionConstants.recoveryObservationNoiseMMSquared) {
        self.window = max(window, 1)
        // Out-of-range values fall back to the default rather than trapping on the hot path.
        self.jerkNoise = jerkNoise.isFinite && jerkNoise > 0 ? jerkNoise : PredictionConfiguration.defaultEstimationJerkNoise
        self.observationNoise = observationNoise.isFinite && observationNoise > 0 ? observationNoise
            : PredictionConstants.recoveryObservationNoiseMMSquared
        size = 3 + self.window - 1
        x = Array(repeating: 0, count: size)
        y = Array(repeating: 0, count: size)
        covariance = Array(repeating: 0, count: size * size)
        scratch = Array(repeating: 0, count: size * size)
        gain = Array(repeating: 0, count: size)
    }

    /// A new proximity: forget the motion too.
    package mutating func reset() {
        started = false
        historyRestarts = true
    }

    /// libinput restarted its smoothing (a contact change); the motion carries on.
    package mutating func restartHistory() {
        historyRestarts = true
    }

    /// Takes the next smoothed position, `step` seconds after the previous one, and returns
    /// the current raw position's estimate.
    package mutating func raw(from smoothed: SIMD2<Double>, step: Double) -> SIMD2<Double> {
        guard window > 1 else { return smoothed }
        if !started {
            start(at: smoothed)
            return smoothed
        }
        predict(step: max(step, 1e-4))
        if historyRestarts {
            // libinput filled its history with this one raw position: it is observed exactly.
            historyRestarts = false
            observe(smoothed, lastEntry: 0)
            for i in 3..<size {
                x[i] = x[0]
                y[i] = y[0]
            }
            pinHistoryToPosition()
        } else {
            observe(smoothed, lastEntry: window - 1)
        }
        return SIMD2(x[0], y[0])
    }

    private mutating func start(at position: SIMD2<Double>) {
        started = true
        historyRestarts = false
        for i in 0..<size {
            x[i] = i == 1 || i == 2 ? 0 : position[0]
            y[i] = i == 1 || i == 2 ? 0 : position[1]
        }
        for i in 0..<(size * size) { covariance[i] = 0 }
        covariance[1 * size + 1] = Self.initialSpeed * Self.initialSpeed
        covariance[2 * size + 2] = Self.initialAcceleration * Self.initialAcceleration
    }

    /// The history entries are now copies of the position: same value, same uncertainty.
    private mutating func pinHistoryToPosition() {
        for i in 3..<size {
            for j in 0..<size {
                covariance[i * size + j] = covariance[j]
                covariance[j * size + i] = covariance[j]
            }
        }
        for i in 3..<size {
            for j in 3..<size { covariance[i * size + j] = covariance[0] }
        }
    }

    /// Constant acceleration with white jerk; the history shifts by one entry.
    private mutating func predict(step dt: Double) {
        let n = size
        // scratch = F · P, row by row (F is sparse: write each row of F P directly).
        for j in 0..<n {
            let p0 = covariance[0 * n + j], p1 = covariance[1 * n + j], p2 = covariance[2 * n + j]
            scratch[0 * n + j] = p0 + dt * p1 + 0.5 * dt * dt * p2
            scratch[1 * n + j] = p1 + dt * p2
            scratch[2 * n + j] = p2
            // History: entry 3 takes the old position, entry k the old entry k − 1.
            if n > 3 { scratch[3 * n + j] = p0 }
            if n > 4 { for k in stride(from: n - 1, through: 4, by: -1) { scratch[k * n + j] = covariance[(k - 1) * n + j] } }
        }
        // covariance = scratch · Fᵀ: the same operation on columns.
        for i in 0..<n {
            let row = i * n
            let c0 = scratch[row + 0], c1 = scratch[row + 1], c2 = scratch[row + 2]
            covariance[row + 0] = c0 + dt * c1 + 0.5 * dt * dt * c2
            covariance[row + 1] = c1 + dt * c2
            covariance[row + 2] = c2
            if n > 3 { covariance[row + 3] = c0 }
            if n > 4 { for k in stride(from: n - 1, through: 4, by: -1) { covariance[row + k] = scratch[row + k - 1] } }
        }
        let q = jerkNoise
        let dt2 = dt * dt, dt3 = dt2 * dt, dt4 = dt3 * dt, dt5 = dt4 * dt
        covariance[0] += q * dt5 / 20
        covariance[1] += q * dt4 / 8; covariance[n] += q * dt4 / 8
        covariance[2] += q * dt3 / 6; covariance[2 * n] += q * dt3 / 6
        covariance[n + 1] += q * dt3 / 3
        covariance[n + 2] += q * dt2 / 2; covariance[2 * n + 1] += q * dt2 / 2
        covariance[2 * n + 2] += q * dt
        Self.shift(&x, size: n, dt: dt)
        Self.shift(&y, size: n, dt: dt)
    }

    private static func shift(_ state: inout [Double], size n: Int, dt: Double) {
        if n > 4 { for k in stride(from: n - 1, through: 4, by: -1) { state[k] = state[k - 1] } }
        if n > 3 { state[3] = state[0] }
        state[0] += dt * state[1] + 0.5 * dt * dt * state[2]
        state[1] += dt * state[2]
    }

    /// Observes the mean of the position and history entries 3 ..< 3 + lastEntry.
    private mutating func observe(_ smoothed: SIMD2<Double>, lastEntry: Int) {
        let n = size
        let count = Double(lastEntry + 1)
        @inline(__always) func observed(_ i: Int) -> Bool { i == 0 || (i >= 3 && i < 3 + lastEntry) }
        // gain = P hᵀ, innovation variance = h P hᵀ + r.
        var variance = observationNoise
        for i in 0..<n {
            var sum = 0.0
            for j in 0..<n where observed(j) { sum += covariance[i * n + j] }
            gain[i] = sum / count
            if observed(i) { variance += gain[i] / count }
        }
        var predictedX = 0.0, predictedY = 0.0
        for i in 0..<n where observed(i) {
            predictedX += x[i]
            predictedY += y[i]
        }
        let innovationX = smoothed[0] - predictedX / count
        let innovationY = smoothed[1] - predictedY / count
        for i in 0..<n {
            x[i] += gain[i] / variance * innovationX
            y[i] += gain[i] / variance * innovationY
        }
        // P −= (P hᵀ)(h P) / s, symmetric.
        for i in 0..<n {
            for j in 0..<n { covariance[i * n + j] -= gain[i] * gain[j] / variance }
        }
    }
}
