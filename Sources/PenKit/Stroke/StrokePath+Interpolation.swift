/// Evaluating the path: a uniform cubic B-spline over the control points, with
/// one phantom control point reflected past each end (P₋₁ = 2P₀ − P₁,
/// Pₙ = 2Pₙ₋₁ − Pₙ₋₂) so that the curve starts exactly at the first control
/// point and ends exactly at the last. Parameter u runs over [0, n − 1];
/// segment i covers [i, i + 1].
extension StrokePath {
    /// How to step along the path (PencilKit's `InterpolatedSlice.Stride`).
    public enum Stride: Sendable, Hashable {
        /// Arc length in mm.
        case distance(Double)
        /// Seconds of time offset.
        case time(Double)
        /// Parameter units (one unit per control point).
        case parametricStep(Double)
    }

    /// How to move a parametric value (PencilKit's `parametricValue(_:offsetBy:)`).
    public enum Offset: Sendable, Hashable {
        /// Arc length in mm; negative moves backwards.
        case distance(Double)
        /// Seconds of time offset; negative moves backwards.
        case time(Double)
    }

    public var isEmpty: Bool { controlPoints.isEmpty }

    /// The largest parametric value, `controlPoints.count - 1` (0 for a path of one point).
    public var maximumParameter: Double { Double(max(controlPoints.count - 1, 0)) }

    /// The point on the curve at parametric value `u`, clamped to the path; nil for an empty path.
    /// Force and opacity are clamped to [0, 1], size and height to ≥ 0, altitude to [0, π/2].
    public func interpolatedPoint(at u: Double) -> StrokePoint? {
        let n = controlPoints.count
        guard n > 0 else { return nil }
        guard n > 1 else { return controlPoints[0] }
        let clamped = u.isNaN ? 0 : min(max(u, 0), maximumParameter)
        let i = min(Int(clamped), n - 2)
        let t = clamped - Double(i)
        let it = 1 - t
        let w0 = it * it * it / 6
        let w1 = (3 * t * t * t - 6 * t * t + 4) / 6
        let w2 = (-3 * t * t * t + 3 * t * t + 3 * t + 1) / 6
        let w3 = t * t * t / 6
        let p0 = control(i - 1), p1 = control(i), p2 = control(i + 1), p3 = control(i + 2)
        // Written out field by field: key paths or closures here cost 10× in debug builds.
        let x = w0 * p0.x + w1 * p1.x + w2 * p2.x + w3 * p3.x
        let y = w0 * p0.y + w1 * p1.y + w2 * p2.y + w3 * p3.y
        let time = w0 * p0.timeOffset + w1 * p1.timeOffset + w2 * p2.timeOffset + w3 * p3.timeOffset
        let size = w0 * p0.size + w1 * p1.size + w2 * p2.size + w3 * p3.size
        let height = w0 * p0.height + w1 * p1.height + w2 * p2.height + w3 * p3.height
        let opacity = w0 * p0.opacity + w1 * p1.opacity + w2 * p2.opacity + w3 * p3.opacity
        let force = w0 * p0.force + w1 * p1.force + w2 * p2.force + w3 * p3.force
        let altitude = w0 * p0.altitude + w1 * p1.altitude + w2 * p2.altitude + w3 * p3.altitude
        // Azimuth blends as a direction so that 359° and 1° average to 0°, not 180°.
        let ax = w0 * cosine(p0.azimuth) + w1 * cosine(p1.azimuth) + w2 * cosine(p2.azimuth) + w3 * cosine(p3.azimuth)
        let ay = w0 * sine(p0.azimuth) + w1 * sine(p1.azimuth) + w2 * sine(p2.azimuth) + w3 * sine(p3.azimuth)
        var azimuth = (ax == 0 && ay == 0) ? p1.azimuth : PenMath.atan2(ay, ax)
        if azimuth < 0 { azimuth += 2 * Double.pi }
        // Roll too (a barrel turned past a full turn wraps); without a rotation axis it stays 0.
        var roll = p1.roll
        if p0.roll != 0 || p1.roll != 0 || p2.roll != 0 || p3.roll != 0 {
            let rx = w0 * cosine(p0.roll) + w1 * cosine(p1.roll) + w2 * cosine(p2.roll) + w3 * cosine(p3.roll)
            let ry = w0 * sine(p0.roll) + w1 * sine(p1.roll) + w2 * sine(p2.roll) + w3 * sine(p3.roll)
            if rx != 0 || ry != 0 { roll = PenMath.atan2(ry, rx) }
            if roll < 0 { roll += 2 * Double.pi }
        }
        return StrokePoint(
            x: x, y: y, timeOffset: time, size: max(size, 0), height: max(height, 0), opacity: min(max(opacity, 0), 1),
            azimuth: azimuth, force: min(max(force, 0), 1), altitude: min(max(altitude, 0), Double.pi / 2), roll: roll)
    }

    /// The time offset at `u`, without evaluating the other properties.
    func timeOffset(at u: Double) -> Double {
        let n = controlPoints.count
        guard n > 1 else { return controlPoints.first?.timeOffset ?? 0 }
        let clamped = u.isNaN ? 0 : min(max(u, 0), maximumParameter)
        let i = min(Int(clamped), n - 2)
        let t = clamped - Double(i)
        let it = 1 - t
        let t0 = control(i - 1).timeOffset, t1 = controlPoints[i].timeOffset
        let t2 = controlPoints[i + 1].timeOffset, t3 = control(i + 2).timeOffset
        return (it * it * it * t0 + (3 * t * t * t - 6 * t * t + 4) * t1
                + (-3 * t * t * t + 3 * t * t + 3 * t + 1) * t2 + t * t * t * t3) / 6
    }

    /// Points along the whole path every `stride`, starting at parameter 0; the
    /// last point of the path is always included.
    public func interpolatedPoints(by stride: Stride) -> [StrokePoint] {
        interpolatedParameters(by: stride).compactMap { interpolatedPoint(at: $0) }
    }

    /// Points of the parametric range `range` (PencilKit's `interpolatedPoints(in:by:)`, used
    /// with `Stroke.maskedPathRanges`) every `stride` from its start; its end is always included.
    public func interpolatedPoints(in range: ClosedRange<Double>, by stride: Stride) -> [StrokePoint] {
        interpolatedParameters(in: range, by: stride).compactMap { interpolatedPoint(at: $0) }
    }

    /// The parametric values `interpolatedPoints(by:)` evaluates, increasing.
    public func interpolatedParameters(by stride: Stride) -> [Double] {
        interpolatedParameters(in: 0...maximumParameter, by: stride)
    }

    /// The parametric values `interpolatedPoints(in:by:)` evaluates, increasing; the range is
    /// clamped to the path.
    public func interpolatedParameters(in range: ClosedRange<Double>, by stride: Stride) -> [Double] {
        guard !isEmpty else { return [] }
        let start = min(max(range.lowerBound, 0), maximumParameter)
        let end = min(max(range.upperBound, start), maximumParameter)
        var result: [Double] = [start]
        switch stride {
        case .parametricStep(let s):
            if s > 0, s.isFinite {
                var k = 1.0
                while start + k * s < end { result.append(start + k * s); k += 1 }
            }
        case .distance(let d):
            if d > 0, d.isFinite {
                let table = ArcLengthTable(self)
                let first = table.length(atParameter: start)
                let last = end == maximumParameter ? table.totalLength : table.length(atParameter: end)
                var k = 1.0
                while first + k * d < last {
                    result.append(table.parameter(atLength: first + k * d))
                    k += 1
                }
            }
        case .time(let dt):
            if dt > 0, dt.isFinite {
                let first = timeOffset(at: start), last = timeOffset(at: end)
                var k = 1.0
                while first + k * dt < last {
                    result.append(parameter(atTimeOffset: first + k * dt))
                    k += 1
                }
            }
        }
        if result.last! < end { result.append(end) }
        return result
    }

    /// The parametric value `offset` away from `u` along the path, clamped to [0, n − 1].
    public func parametricValue(_ u: Double, offsetBy offset: Offset) -> Double {
        guard !isEmpty else { return 0 }
        let start = min(max(u.isNaN ? 0 : u, 0), maximumParameter)
        switch offset {
        case .distance(let d):
            let table = ArcLengthTable(self)
            return table.parameter(atLength: table.length(atParameter: start) + d)
        case .time(let dt):
            return parameter(atTimeOffset: timeOffset(at: start) + dt)
        }
    }

    /// Arc length in mm from the start to `u`.
    public func length(to u: Double) -> Double {
        guard !isEmpty else { return 0 }
        return ArcLengthTable(self).length(atParameter: min(max(u, 0), maximumParameter))
    }

    /// Total arc length in mm.
    public var length: Double { length(to: maximumParameter) }

    /// Inverse of the time offset, which never decreases along the path (see
    /// `StrokePath.fitting`): the smallest parameter reaching `time`, by bisection.
    func parameter(atTimeOffset time: Double) -> Double {
        var lo = 0.0, hi = maximumParameter
        if time <= timeOffset(at: lo) { return lo }
        if time >= timeOffset(at: hi) { return hi }
        for _ in 0..<64 {
            let mid = (lo + hi) / 2
            if timeOffset(at: mid) < time { lo = mid } else { hi = mid }
            if hi - lo < 1e-12 { break }
        }
        return hi
    }

    /// Control point `i`, with the reflected phantoms at −1 and n.
    func control(_ i: Int) -> StrokePoint {
        let n = controlPoints.count
        if i < 0 { return Self.reflect(controlPoints[0], through: controlPoints[1]) }
        if i >= n { return Self.reflect(controlPoints[n - 1], through: controlPoints[n - 2]) }
        return controlPoints[i]
    }

    /// 2a − b for every property; azimuth and roll stay a's (they blend as directions).
    private static func reflect(_ a: StrokePoint, through b: StrokePoint) -> StrokePoint {
        StrokePoint(x: 2 * a.x - b.x, y: 2 * a.y - b.y, timeOffset: 2 * a.timeOffset - b.timeOffset,
                    size: 2 * a.size - b.size, height: 2 * a.height - b.height, opacity: 2 * a.opacity - b.opacity, azimuth: a.azimuth,
                    force: 2 * a.force - b.force, altitude: 2 * a.altitude - b.altitude, roll: a.roll)
    }
}

/// Cumulative arc length at `subdivisions` equal parameter steps per segment;
/// between nodes, length is taken as linear in the parameter, so that length
/// and its inverse are exact inverses of each other.
struct ArcLengthTable {
    static let subdivisions = 32
    let cumulative: [Double]
    let step: Double

    init(_ path: StrokePath) {
        let segments = max(path.controlPoints.count - 1, 0)
        let count = segments * Self.subdivisions
        step = 1 / Double(Self.subdivisions)
        var table = [Double](repeating: 0, count: count + 1)
        guard count > 0, var previous = path.interpolatedPoint(at: 0) else {
            cumulative = table
            return
        }
        for j in 1...count {
            let p = path.interpolatedPoint(at: Double(j) * step)!
            let dx = p.x - previous.x, dy = p.y - previous.y
            table[j] = table[j - 1] + (dx * dx + dy * dy).squareRoot()
            previous = p
        }
        cumulative = table
    }

    var totalLength: Double { cumulative.last ?? 0 }

    func length(atParameter u: Double) -> Double {
        let last = cumulative.count - 1
        guard last > 0 else { return 0 }
        let x = min(max(u / step, 0), Double(last))
        let j = min(Int(x), last - 1)
        return cumulative[j] + (x - Double(j)) * (cumulative[j + 1] - cumulative[j])
    }

    func parameter(atLength s: Double) -> Double {
        let last = cumulative.count - 1
        guard last > 0 else { return 0 }
        if s <= 0 { return 0 }
        if s >= cumulative[last] { return Double(last) * step }
        // First node at or past s (binary search: cumulative never decreases).
        var lo = 0, hi = last
        while hi - lo > 1 {
            let mid = (lo + hi) / 2
            if cumulative[mid] < s { lo = mid } else { hi = mid }
        }
        let span = cumulative[hi] - cumulative[lo]
        let fraction = span > 0 ? (s - cumulative[lo]) / span : 0
        return (Double(lo) + fraction) * step
    }
}
