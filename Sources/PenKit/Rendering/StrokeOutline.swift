/// The area a stretch of stroke covers: a disc of the point's size at every
/// point and, between neighbours, the trapezoid joining their diameters across
/// the segment. All pieces wind the same way, so under SVG's nonzero fill rule
/// one path of them fills their union once: sharp turns and loops leave no holes,
/// and semi-transparent ink does not darken where pieces overlap.
struct StrokeOutline {
    let points: [StrokePoint]

    init(_ points: [StrokePoint]) {
        self.points = points
    }

    /// SVG path data for the segments from point `segments.lowerBound` to
    /// `segments.upperBound` (point indices) and the discs at `discs`.
    func pathData(segments: Range<Int>, discs: Range<Int>) -> String {
        var d = ""
        for i in discs { disc(points[i], into: &d) }
        for i in segments { trapezoid(points[i], points[i + 1], into: &d) }
        return d
    }

    /// Two half-circle arcs, swept the same way round as the trapezoids.
    private func disc(_ p: StrokePoint, into d: inout String) {
        let r = p.size / 2
        guard r > 0 else { return }
        let rs = n(r)
        d += "M\(n(p.x + r)),\(n(p.y))A\(rs),\(rs) 0 1 0 \(n(p.x - r)),\(n(p.y))A\(rs),\(rs) 0 1 0 \(n(p.x + r)),\(n(p.y))Z"
    }

    private func trapezoid(_ p: StrokePoint, _ q: StrokePoint, into d: inout String) {
        let dx = q.x - p.x, dy = q.y - p.y
        let length = (dx * dx + dy * dy).squareRoot()
        guard length > 1e-9 else { return }
        let nx = -dy / length, ny = dx / length
        let rp = p.size / 2, rq = q.size / 2
        d += "M\(n(p.x + rp * nx)),\(n(p.y + rp * ny))L\(n(q.x + rq * nx)),\(n(q.y + rq * ny))"
            + "L\(n(q.x - rq * nx)),\(n(q.y - rq * ny))L\(n(p.x - rp * nx)),\(n(p.y - rp * ny))Z"
    }

    private func n(_ v: Double) -> String { SVGNumber.format(v) }
}
