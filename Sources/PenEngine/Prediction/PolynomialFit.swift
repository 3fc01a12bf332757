/// Weighted least-squares fit of x(t) and y(t) over recent samples, with t in seconds
/// relative to the newest sample (t ≤ 0). Solved in closed form: no allocation.
struct PolynomialFit: Sendable {
    /// Position at t = 0, velocity (mm/s) and acceleration (mm/s²) per axis.
    var x = SIMD3<Double>(0, 0, 0)
    var y = SIMD3<Double>(0, 0, 0)
    var sampleCount = 0

    var position: SIMD2<Double> { SIMD2(x[0], y[0]) }
    var velocity: SIMD2<Double> { SIMD2(x[1], y[1]) }
    var acceleration: SIMD2<Double> { SIMD2(x[2], y[2]) }

    /// Fits the newest `maxSamples` samples no older than `window` seconds. Degree 2 needs
    /// three samples and falls back to a line with two; `weight` maps age (s, ≥ 0) to weight.
    ///
    /// With `uniformTime`, sample i back from the newest is placed at −i × the mean interval
    /// of the window instead of at its timestamp: tablets sample at a fixed rate, and their
    /// timestamps carry the jitter of USB polling (reports 3 and 8 ms apart that moved the
    /// same distance), which a fit on raw timestamps turns into velocity noise.
    static func fit(_ history: SampleHistory, maxSamples: Int, window: Double, degree: Int, uniformTime: Bool = false,
                    weight: (Double) -> Double = { _ in 1 }) -> PolynomialFit? {
        var available = min(history.count, maxSamples)
        guard available >= 2 else { return nil }
        let newestTime = history[fromEnd: 0].time
        var meanInterval = 0.0
        if uniformTime {
            var oldest = 1
            while oldest + 1 < available && Double(newestTime - history[fromEnd: oldest + 1].time) * 1e-6 <= window {
                oldest += 1
            }
            available = oldest + 1
            meanInterval = Double(newestTime - history[fromEnd: oldest].time) * 1e-6 / Double(oldest)
        }
        var s = SIMD8<Double>()           // Σw·t^k, k = 0...4
        var sx = SIMD3<Double>(), sy = SIMD3<Double>()  // Σw·t^k·x, k = 0...2
        var used = 0
        for i in 0..<available {
            let sample = history[fromEnd: i]
            let age = uniformTime ? Double(i) * meanInterval : Double(newestTime - sample.time) * 1e-6
            if i > 0 && age > window { break }
            let w = weight(age)
            let t = -age
            let t2 = t * t
            s[0] += w; s[1] += w * t; s[2] += w * t2; s[3] += w * t2 * t; s[4] += w * t2 * t2
            sx += SIMD3(w, w * t, w * t2) * sample.x
            sy += SIMD3(w, w * t, w * t2) * sample.y
            used += 1
        }
        guard used >= 2 else { return nil }
        var result = PolynomialFit()
        result.sampleCount = used
        if degree >= 2 && used >= 3,
           let (cx, cy) = solveQuadratic(s, sx, sy) {
            result.x = SIMD3(cx[0], cx[1], 2 * cx[2])
            result.y = SIMD3(cy[0], cy[1], 2 * cy[2])
            return result
        }
        let det = s[0] * s[2] - s[1] * s[1]
        guard abs(det) > 1e-30 else { return nil }
        result.x = SIMD3((sx[0] * s[2] - sx[1] * s[1]) / det, (s[0] * sx[1] - s[1] * sx[0]) / det, 0)
        result.y = SIMD3((sy[0] * s[2] - sy[1] * s[1]) / det, (s[0] * sy[1] - s[1] * sy[0]) / det, 0)
        return result
    }

    /// Solves the 3×3 normal equations by Cramer's rule; nil when (nearly) singular.
    private static func solveQuadratic(_ s: SIMD8<Double>, _ bx: SIMD3<Double>, _ by: SIMD3<Double>)
        -> (SIMD3<Double>, SIMD3<Double>)? {
        let a = s[0], b = s[1], c = s[2], d = s[3], e = s[4]
        // Symmetric matrix [[a b c] [b c d] [c d e]].
        let m00 = c * e - d * d, m01 = c * d - b * e, m02 = b * d - c * c
        let m11 = a * e - c * c, m12 = b * c - a * d, m22 = a * c - b * b
        let det = a * m00 + b * m01 + c * m02
        // Relative threshold: the matrix scales with t⁴ and t is a few ms.
        guard abs(det) > 1e-12 * abs(a * c * e) && det != 0 else { return nil }
        func solve(_ r: SIMD3<Double>) -> SIMD3<Double> {
            SIMD3(m00 * r[0] + m01 * r[1] + m02 * r[2],
                  m01 * r[0] + m11 * r[1] + m12 * r[2],
                  m02 * r[0] + m12 * r[1] + m22 * r[2]) / det
        }
        return (solve(bx), solve(by))
    }
}

/// Quadratic least squares over the last few samples (Chromium's and Android's lsq2).
/// Exact for constant acceleration; follows noise when its window is short.
public struct LeastSquaresPredictor: Predictor {
    private var history = SampleHistory(capacity: 8)
    public let sampleCount: Int

    public init(sampleCount: Int = 4) {
        precondition(sampleCount >= 3 && sampleCount <= 8, "lsq2 needs 3...8 samples")
        self.sampleCount = sampleCount
    }

    private var fit: PolynomialFit?

    public var name: String { "lsq2" }

    public mutating func reset() {
        history.removeAll()
        fit = nil
    }

    public mutating func update(_ sample: PredictionSample) {
        history.append(sample)
        fit = PolynomialFit.fit(history, maxSamples: sampleCount, window: .infinity, degree: 2)
    }

    public func extrapolate(by dt: Double) -> PredictionSample? {
        guard let fit, let newest = history.last else { return nil }
        var result = newest
        result.x = fit.x[0] + fit.x[1] * dt + 0.5 * fit.x[2] * dt * dt
        result.y = fit.y[0] + fit.y[1] * dt + 0.5 * fit.y[2] * dt * dt
        let reference = history[fromEnd: min(history.count, sampleCount) - 1]
        AttributeTrend.extrapolate(&result, newest: newest, reference: reference, by: dt)
        return result
    }
}
