/// Plane geometry the eraser and the renderer share.
enum Geometry {
    /// Distance from a point to the segment a–b.
    static func distance(fromX px: Double, y py: Double, toSegment a: DrawingPoint, _ b: DrawingPoint) -> Double {
        let dx = b.x - a.x, dy = b.y - a.y
        let lengthSquared = dx * dx + dy * dy
        var t = lengthSquared > 0 ? ((px - a.x) * dx + (py - a.y) * dy) / lengthSquared : 0
        t = min(max(t, 0), 1)
        let ex = px - (a.x + t * dx), ey = py - (a.y + t * dy)
        return (ex * ex + ey * ey).squareRoot()
    }

    /// Distance from a point to a polyline (a single point counts as a polyline); infinity for none.
    static func distance(fromX px: Double, y py: Double, toPolyline points: [DrawingPoint]) -> Double {
        guard let first = points.first else { return .infinity }
        if points.count == 1 {
            let ex = px - first.x, ey = py - first.y
            return (ex * ex + ey * ey).squareRoot()
        }
        var best = Double.infinity
        for i in 1..<points.count {
            best = min(best, distance(fromX: px, y: py, toSegment: points[i - 1], points[i]))
        }
        return best
    }
}
