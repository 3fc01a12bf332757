/// Building a path from measured samples.
///
/// Location, size, opacity, force and altitude control points are solved so
/// that the B-spline passes through every sample at its integer parameter
/// (curve(i) = sample i): with the reflected end phantoms this is the
/// tridiagonal system P₀ = S₀, Pᵢ₋₁ + 4Pᵢ + Pᵢ₊₁ = 6Sᵢ, Pₙ₋₁ = Sₙ₋₁, solved in
/// O(n). Time offsets and azimuths are used as they are (the curve then
/// approximates them): a B-spline of non-decreasing control values never
/// decreases, so time along the path is monotonic, which stepping by time needs;
/// azimuth blends as a direction. docs/strokes.md gives the measured distance
/// between the curve and the samples.
extension StrokePath {
    public static func fitting(_ samples: [StrokeSample], creationTime: UInt64) -> StrokePath {
        let n = samples.count
        guard n > 0 else { return StrokePath(controlPoints: [], creationTime: creationTime) }
        func solved(_ f: (StrokeSample) -> Double) -> [Double] { solveInterpolation(samples.map(f)) }
        let xs = solved(\.x), ys = solved(\.y), sizes = solved(\.size), opacities = solved(\.opacity)
        let forces = solved(\.force), altitudes = solved(\.altitude)
        var controls: [StrokePoint] = []
        controls.reserveCapacity(n)
        for i in 0..<n {
            let s = samples[i]
            let offset = s.time >= creationTime ? Double(s.time - creationTime) / 1_000_000
                                                : -Double(creationTime - s.time) / 1_000_000
            controls.append(StrokePoint(x: xs[i], y: ys[i], timeOffset: offset, size: sizes[i],
                                        opacity: opacities[i], azimuth: s.azimuth, force: forces[i],
                                        altitude: altitudes[i]))
        }
        return StrokePath(controlPoints: controls, creationTime: creationTime)
    }

    /// Control values whose clamped uniform cubic B-spline interpolates `values`.
    static func solveInterpolation(_ values: [Double]) -> [Double] {
        let n = values.count
        guard n > 2 else { return values }
        // Thomas algorithm; rows 0 and n−1 are identity rows.
        var c = [Double](repeating: 0, count: n)   // modified super-diagonal
        var d = [Double](repeating: 0, count: n)   // modified right-hand side
        d[0] = values[0]
        for i in 1..<(n - 1) {
            let m = 4 - c[i - 1]
            c[i] = 1 / m
            d[i] = (6 * values[i] - d[i - 1]) / m
        }
        var p = [Double](repeating: 0, count: n)
        p[n - 1] = values[n - 1]
        for i in stride(from: n - 2, through: 1, by: -1) {
            p[i] = d[i] - c[i] * p[i + 1]
        }
        p[0] = values[0]
        return p
    }
}
