/// The visible parts of a stroke: its mask applied to its path.
extension Stroke {
    /// Parameter step at which visibility is sampled before each boundary is
    /// refined by bisection: a visible or hidden stretch shorter than this (1/32 of
    /// the path between two control points) can be missed.
    static let visibilityStep = 1.0 / 32

    /// The parametric ranges of the path still visible (PencilKit's
    /// `maskedPathRanges`): inside the mask's clip and outside every erased region,
    /// judged at the path's centre line. Empty when nothing is left; one range
    /// covering the path for a stroke without a mask.
    public var maskedPathRanges: [ClosedRange<Double>] {
        guard !path.isEmpty else { return [] }
        let whole = 0...path.maximumParameter
        guard let mask else { return [whole] }
        var base = whole
        if let clip = mask.clip {
            guard let kept = Self.intersect(clip, whole) else { return [] }
            base = kept
        }
        if mask.erased.isEmpty { return [base] }
        return Self.visibleRanges(in: base) { u in
            let p = path.interpolatedPoint(at: u)!
            return !mask.erases(pathX: p.x, y: p.y)
        }
    }

    static func intersect(_ a: ClosedRange<Double>, _ b: ClosedRange<Double>) -> ClosedRange<Double>? {
        let lo = max(a.lowerBound, b.lowerBound), hi = min(a.upperBound, b.upperBound)
        return lo <= hi ? lo...hi : nil
    }

    /// Where `visible` holds over `range`, sampled every `visibilityStep`, each
    /// change located by bisection to 10⁻¹² of a parameter unit.
    static func visibleRanges(in range: ClosedRange<Double>, _ visible: (Double) -> Bool) -> [ClosedRange<Double>] {
        var result: [ClosedRange<Double>] = []
        var u = range.lowerBound
        var shown = visible(u)
        var start: Double? = shown ? u : nil
        while u < range.upperBound {
            let next = min(u + visibilityStep, range.upperBound)
            let nextShown = visible(next)
            if nextShown != shown {
                var lo = u, hi = next
                while hi - lo > 1e-12 {
                    let mid = (lo + hi) / 2
                    if visible(mid) == shown { lo = mid } else { hi = mid }
                }
                if shown, let s = start {
                    result.append(s...lo)
                    start = nil
                } else {
                    start = hi
                }
                shown = nextShown
            }
            u = next
        }
        if let s = start { result.append(s...range.upperBound) }
        return result
    }

    /// A point of the path placed in the drawing: location through `transform`,
    /// size scaled by its `widthScale`, azimuth turned by its rotation.
    public func drawingPoint(_ p: StrokePoint) -> StrokePoint {
        guard !transform.isIdentity else { return p }
        let location = transform.apply(x: p.x, y: p.y)
        var azimuth = (p.azimuth + transform.rotationAngle).truncatingRemainder(dividingBy: 2 * Double.pi)
        if azimuth < 0 { azimuth += 2 * Double.pi }
        return StrokePoint(x: location.x, y: location.y, timeOffset: p.timeOffset, size: p.size * transform.widthScale,
                           height: p.height * transform.widthScale, opacity: p.opacity, azimuth: azimuth, force: p.force, altitude: p.altitude,
                           roll: p.roll)
    }

    /// Points of the visible ranges in drawing coordinates, every `stride` along the
    /// path (distances are measured on the path, before the transform).
    public func visiblePoints(by stride: StrokePath.Stride) -> [[StrokePoint]] {
        maskedPathRanges.map { range in path.interpolatedPoints(in: range, by: stride).map(drawingPoint) }
    }

    /// The area the visible stroke covers in the drawing, with the transform and mask
    /// applied: the curve at 16 steps per control point, widened by half the size.
    /// nil when nothing of it is visible.
    public var renderBounds: StrokeBounds? {
        var b = StrokeBounds(minX: .infinity, minY: .infinity, maxX: -.infinity, maxY: -.infinity)
        for part in visiblePoints(by: .parametricStep(1.0 / 16)) {
            for p in part {
                let r = p.size / 2
                b.minX = min(b.minX, p.x - r)
                b.minY = min(b.minY, p.y - r)
                b.maxX = max(b.maxX, p.x + r)
                b.maxY = max(b.maxY, p.y + r)
            }
        }
        return b.minX <= b.maxX ? b : nil
    }
}

extension StrokeBounds {
    /// The smallest rectangle holding both.
    public func union(_ other: StrokeBounds) -> StrokeBounds {
        StrokeBounds(minX: min(minX, other.minX), minY: min(minY, other.minY),
                     maxX: max(maxX, other.maxX), maxY: max(maxY, other.maxY))
    }
}
