/// Weighted least-squares fit of x(t) and y(t) over recent samples, with t in seconds
/// relative to the newest sample (t ≤ 0). Solved in closed form: no allocation.
package struct PolynomialFit: Sendable {
    /// Position at t = 0, velocity (mm/s) and acceleration (mm/s²) per axis.
    package var x = SIMD3<Double>(0, 0, 0)
    package var y = SIMD3<Double>(0, 0, 0)
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
    ///
    /// `basis` gives φ for a sample `age` (s) old, reports `step` (s) apart: (1, t, t²) at its
    /// time (`rawBasis`) unless the caller observes samples otherwise (the lab's smoothed ones).
    package static func fit(_ history: SampleHistory, maxSamples: Int, window: Double, degree: Int, uniformTime: Bool = false,
                            weight: (Double) -> Double = { _ in 1 },
                            basis: (_ age: Double, _ step: Double, _ sample: PredictionSample) -> SIMD3<Double> = rawBasis)
        -> PolynomialFit? {
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
        // Normal equations Σw·φφᵀ c = Σw·φ·x with φ = `basis`: (1, t, t²) for a raw sample.
        var m = NormalMatrix()
        var sx = SIMD3<Double>(), sy = SIMD3<Double>()
        var used = 0
        for i in 0..<available {
            let sample = history[fromEnd: i]
            let age = uniformTime ? Double(i) * meanInterval : Double(newestTime - sample.time) * 1e-6
            if i > 0 && age > window { break }
            let step = uniformTime ? meanInterval : (i > 0 ? age / Double(i) : 0)
            let phi = basis(age, step, sample)
            let w = weight(age)
            m.add(phi, weight: w)
            sx += w * phi * sample.x
            sy += w * phi * sample.y
            used += 1
        }
        guard used >= 2 else { return nil }
        var result = PolynomialFit()
        result.sampleCount = used
        if degree >= 2 && used >= 3, let (cx, cy) = m.solve(sx, sy) {
            result.x = SIMD3(cx[0], cx[1], 2 * cx[2])
            result.y = SIMD3(cy[0], cy[1], 2 * cy[2])
            return result
        }
        guard let (lx, ly) = m.solveLinear(sx, sy) else { return nil }
        result.x = SIMD3(lx[0], lx[1], 0)
        result.y = SIMD3(ly[0], ly[1], 0)
        return result
    }

    /// (1, t, t²) at the sample's time, t = −age: the position observed is the path's own.
    @inline(__always)
    package static func rawBasis(age: Double, step: Double, sample: PredictionSample) -> SIMD3<Double> {
        SIMD3(1, -age, age * age)
    }

}
