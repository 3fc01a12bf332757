/// Building a path from measured samples.
///
/// Location, size, opacity, force and altitude control points are solved so
/// that the B-spline passes through every sample at its integer parameter
/// (curve(i) = sample i): with the reflected end phantoms this is the
/// tridiagonal system P₀ = S₀, Pᵢ₋₁ + 4Pᵢ + Pᵢ₊₁ = 6Sᵢ, Pₙ₋₁ = Sₙ₋₁, solved in
/// O(n). Time offsets and azimuths are used as they are (the curve then
/// approximates them): a B-spline of non-decreasing control values never
/// decreases, so time along the path is monotonic, which stepping by time needs;
/// azimuth and roll blend as directions. docs/strokes.md gives the measured distance
/// between the curve and the samples. Samples carry one size (the protocol's);
/// the nib's height is `heightRatio` times it (the ink's `nibAspect`), which the
/// linear solve keeps, so it is applied to the solved sizes.
extension StrokePath {
    public static func fitting(_ samples: [StrokeSample], creationTime: UInt64, heightRatio: Double = 1) -> StrokePath {
        var path = solved(samples, creationTime: creationTime)
        if heightRatio != 1 {
            for i in path.controlPoints.indices { path.controlPoints[i].height = path.controlPoints[i].size * heightRatio }
        }
        return path
    }

    private static func solved(_ samples: [StrokeSample], creationTime: UInt64) -> StrokePath {
        let n = samples.count
        guard n > 0 else { return StrokePath(controlPoints: [], creationTime: creationTime) }
        // Each control point starts as its sample; the six interpolated channels are then solved
        // together in place (Thomas algorithm: rows 0 and n−1 are identity rows, the modified
        // super-diagonal depends on n alone), so a long stroke costs one array, not two dozen.
        var controls: [StrokePoint] = []
        controls.reserveCapacity(n)
        for s in samples {
            let offset = s.time >= creationTime ? Double(s.time - creationTime) / 1_000_000
                                                : -Double(creationTime - s.time) / 1_000_000
            controls.append(StrokePoint(x: s.x, y: s.y, timeOffset: offset, size: s.size, opacity: s.opacity,
                                        azimuth: s.azimuth, force: s.force, altitude: s.altitude, roll: s.roll))
        }
        guard n > 2 else { return StrokePath(controlPoints: controls, creationTime: creationTime) }
        var superDiagonal = [Double](repeating: 0, count: n)
        controls.withUnsafeMutableBufferPointer { p in
            for i in 1..<(n - 1) {
                let m = 4 - superDiagonal[i - 1]
                superDiagonal[i] = 1 / m
                let s = samples[i]
                p[i].x = (6 * s.x - p[i - 1].x) / m
                p[i].y = (6 * s.y - p[i - 1].y) / m
                p[i].size = (6 * s.size - p[i - 1].size) / m
                p[i].opacity = (6 * s.opacity - p[i - 1].opacity) / m
                p[i].force = (6 * s.force - p[i - 1].force) / m
                p[i].altitude = (6 * s.altitude - p[i - 1].altitude) / m
            }
            for i in stride(from: n - 2, through: 1, by: -1) {
                let c = superDiagonal[i]
                p[i].x -= c * p[i + 1].x
                p[i].y -= c * p[i + 1].y
                p[i].size -= c * p[i + 1].size
                p[i].height = p[i].size
                p[i].opacity -= c * p[i + 1].opacity
                p[i].force -= c * p[i + 1].force
                p[i].altitude -= c * p[i + 1].altitude
            }
        }
        return StrokePath(controlPoints: controls, creationTime: creationTime)
    }
}
