/// The area a run of points covers when a nib of each point's size and height,
/// its axis at `nibAngle` plus the point's roll (the barrel turns the nib), is drawn along it, as closed polygons ("rings") that
/// all wind the same way (negative signed area in x, y), so that the nonzero
/// fill rule fills their union once.
///
/// The run is a ribbon: each point's nib edge on either side of the path (the
/// nib's support point along the path's normal, so a chisel is wide across its
/// axis and thin along it), joined from point to point, with the nib itself at
/// the ends. Where the path turns tighter than half its width, the ribbon would
/// fold over itself and wind the other way; those segments are drawn as
/// separate triangles, each turned to wind the same way, with the nib at both
/// ends, so that no fold leaves a hole. The points should be close together
/// (StrokePieces samples the path every quarter millimetre): edges between
/// them are straight.
struct StrokeOutline {
    typealias Ring = [DrawingPoint]

    let points: [StrokePoint]
    let nibAngle: Double
    /// The nib's left edge at each point, and its right edge (mirrored through the point).
    private let edges: [DrawingPoint]
    /// Points where the half-width changes faster than 0.15 mm a mm: there the nib pokes out of
    /// the ribbon (whose edge is the nib's at the normal, not the true envelope's tangent point),
    /// so it is drawn too.
    private let steep: [Bool]

    init(_ points: [StrokePoint], nibAngle: Double) {
        // Coincident points have no direction: keep the last of each cluster.
        var kept: [StrokePoint] = []
        kept.reserveCapacity(points.count)
        for p in points {
            if let last = kept.last, abs(p.x - last.x) < 1e-7, abs(p.y - last.y) < 1e-7 { kept[kept.count - 1] = p } else { kept.append(p) }
        }
        self.points = kept
        self.nibAngle = nibAngle
        var edges: [DrawingPoint] = []
        edges.reserveCapacity(kept.count)
        var direction = (x: 1.0, y: 0.0)
        for i in kept.indices {
            let a = kept[max(i - 1, 0)], b = kept[min(i + 1, kept.count - 1)]
            let dx = b.x - a.x, dy = b.y - a.y
            let length = (dx * dx + dy * dy).squareRoot()
            if length > 0 { direction = (dx / length, dy / length) }
            edges.append(Self.support(normal: (-direction.y, direction.x), point: kept[i], axis: Self.axis(nibAngle, kept[i])))
        }
        self.edges = edges
        var steep = [Bool](repeating: false, count: kept.count)
        var normal = (x: 0.0, y: 1.0)
        for i in kept.indices.dropFirst().dropLast() {
            let a = kept[i - 1], b = kept[i + 1]
            let dx = b.x - a.x, dy = b.y - a.y
            let length = (dx * dx + dy * dy).squareRoot()
            if length > 0 { normal = (-dy / length, dx / length) }
            let ha = edges[i - 1].x * normal.x + edges[i - 1].y * normal.y
            let hb = edges[i + 1].x * normal.x + edges[i + 1].y * normal.y
            steep[i] = abs(hb - ha) > 0.15 * length
        }
        self.steep = steep
    }

    /// The nib's axis at point p: the ink's angle turned by the pen's roll.
    static func axis(_ nibAngle: Double, _ p: StrokePoint) -> (x: Double, y: Double) {
        let angle = nibAngle + p.roll
        return (x: PenMath.cos(angle), y: PenMath.sin(angle))
    }

    /// The offset from the nib's centre to its farthest point along `normal`: for an
    /// ellipse of half-axes a (along `axis`) and b, (a²(n·u)u + b²(n·v)v) / h with
    /// h = √(a²(n·u)² + b²(n·v)²), its half-width across the path.
    static func support(normal n: (x: Double, y: Double), point p: StrokePoint,
                        axis u: (x: Double, y: Double)) -> DrawingPoint {
        let a = p.size / 2, b = p.height / 2
        let v = (x: -u.y, y: u.x)
        let nu = n.x * u.x + n.y * u.y, nv = n.x * v.x + n.y * v.y
        let h = (a * a * nu * nu + b * b * nv * nv).squareRoot()
        guard h > 0 else { return DrawingPoint(x: 0, y: 0) }
        return DrawingPoint(x: (a * a * nu * u.x + b * b * nv * v.x) / h, y: (a * a * nu * u.y + b * b * nv * v.y) / h)
    }

    private func left(_ i: Int) -> DrawingPoint { DrawingPoint(x: points[i].x + edges[i].x, y: points[i].y + edges[i].y) }
    private func right(_ i: Int) -> DrawingPoint { DrawingPoint(x: points[i].x - edges[i].x, y: points[i].y - edges[i].y) }

    /// Rings covering the segments `segments` (from point `lowerBound` to point `upperBound`),
    /// and the points where a nib must be drawn too: where a segment folds, or the width swells fast. Indices are of
    /// `points` (coincident input points merged). The caller adds the nibs at the ends.
    func ribbon(segments: Range<Int>) -> (rings: [Ring], foldNibs: [Int]) {
        guard !points.isEmpty else { return ([], []) }
        var rings: [Ring] = []
        var nibs: [Int] = []
        var runStart: Int? = nil
        func closeRun(at end: Int) {
            guard let start = runStart, end > start else { return }
            var ring: Ring = (start...end).map(left)
            ring.append(contentsOf: (start...end).reversed().map(right))
            rings.append(ring)
            runStart = nil
        }
        for i in segments {
            if steep[i], nibs.last != i { nibs.append(i) }
            if unfolded(i) {
                if runStart == nil { runStart = i }
            } else {
                closeRun(at: i)
                let (l0, l1, r1, r0) = (left(i), left(i + 1), right(i + 1), right(i))
                rings.append(Self.wound([l0, l1, r1]))
                rings.append(Self.wound([l0, r1, r0]))
                if nibs.last != i { nibs.append(i) }
                nibs.append(i + 1)
            }
        }
        closeRun(at: segments.upperBound)
        return (rings, nibs)
    }

    /// Segment i's quadrilateral winds the ribbon's way in both of its triangles.
    private func unfolded(_ i: Int) -> Bool {
        let (l0, l1, r1, r0) = (left(i), left(i + 1), right(i + 1), right(i))
        return Self.signedArea([l0, l1, r1]) < 0 && Self.signedArea([l0, r1, r0]) < 0
    }

    /// The nib at point i: an ellipse, as a polygon fine enough that its chords stray
    /// less than about a hundredth of a millimetre.
    func nib(at i: Int) -> Ring {
        let p = points[i]
        let a = p.size / 2, b = p.height / 2
        let u = Self.axis(nibAngle, p), v = (x: -u.y, y: u.x)
        let count = min(max(Int((max(a, b) * 30).squareRoot() * 4), 12), 96)
        var ring: Ring = []
        ring.reserveCapacity(count)
        for k in 0..<count {
            let phi = -2 * Double.pi * Double(k) / Double(count)
            let c = PenMath.cos(phi), s = PenMath.sin(phi)
            ring.append(DrawingPoint(x: p.x + a * c * u.x + b * s * v.x, y: p.y + a * c * u.y + b * s * v.y))
        }
        return Self.wound(ring)
    }

    /// Twice the signed area, by the shoelace formula.
    static func signedArea(_ ring: Ring) -> Double {
        var sum = 0.0
        for i in ring.indices {
            let p = ring[i], q = ring[(i + 1) % ring.count]
            sum += p.x * q.y - q.x * p.y
        }
        return sum
    }

    /// The ring turned, if need be, to wind as the ribbon does (negative area).
    static func wound(_ ring: Ring) -> Ring {
        signedArea(ring) > 0 ? ring.reversed() : ring
    }
}
