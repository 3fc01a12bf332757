/// Turning measured samples into a finished stroke: appearance per sample
/// from the ink (InkResponse.swift), then the path through them.
extension Stroke {
    public init(id: UInt64, tool: ToolIdentity, ink: Ink, cancelled: Bool, samples: [Sample]) {
        var points: [StrokeSample] = []
        points.reserveCapacity(samples.count)
        for i in samples.indices {
            let s = samples[i]
            let v = Self.speed(samples, at: i)
            points.append(StrokeSample(
                time: s.time, x: s.x, y: s.y, force: s.force, azimuth: s.azimuth, altitude: s.altitude,
                roll: s.roll,
                size: ink.size(force: s.force, altitude: s.altitude, azimuth: s.azimuth, roll: s.roll, speed: v),
                opacity: ink.opacity(force: s.force, altitude: s.altitude, azimuth: s.azimuth, roll: s.roll, speed: v),
                estimated: s.estimated))
        }
        let path = StrokePath.fitting(points, creationTime: samples.first?.time ?? 0, heightRatio: ink.type.nibAspect)
        self.init(id: id, tool: tool, ink: ink, cancelled: cancelled, points: points, path: path)
    }

    /// Speed in mm/s at sample i: the central difference over its neighbours
    /// (one-sided at the ends); 0 where the neighbours share a timestamp.
    static func speed(_ samples: [Sample], at i: Int) -> Double {
        guard samples.count > 1 else { return 0 }
        let a = samples[max(i - 1, 0)], b = samples[min(i + 1, samples.count - 1)]
        guard b.time > a.time else { return 0 }
        let dx = b.x - a.x, dy = b.y - a.y
        return (dx * dx + dy * dy).squareRoot() / (Double(b.time - a.time) / 1_000_000)
    }
}

/// An axis-aligned rectangle in mm.
public struct StrokeBounds: Sendable, Hashable {
    public var minX: Double, minY: Double, maxX: Double, maxY: Double

    public init(minX: Double, minY: Double, maxX: Double, maxY: Double) {
        self.minX = minX
        self.minY = minY
        self.maxX = maxX
        self.maxY = maxY
    }

    public var width: Double { maxX - minX }
    public var height: Double { maxY - minY }

    public func contains(x: Double, y: Double) -> Bool {
        x >= minX && x <= maxX && y >= minY && y <= maxY
    }
}

extension StrokePath {
    /// The area the drawn path covers: the curve, evaluated at 16 steps per
    /// segment, widened by half the size at each step; nil for an empty path.
    public var renderBounds: StrokeBounds? {
        guard !isEmpty else { return nil }
        var b = StrokeBounds(minX: .infinity, minY: .infinity, maxX: -.infinity, maxY: -.infinity)
        for u in interpolatedParameters(by: .parametricStep(1.0 / 16)) {
            let p = interpolatedPoint(at: u)!
            let r = p.size / 2
            b.minX = min(b.minX, p.x - r)
            b.minY = min(b.minY, p.y - r)
            b.maxX = max(b.maxX, p.x + r)
            b.maxY = max(b.maxY, p.y + r)
        }
        return b
    }
}

