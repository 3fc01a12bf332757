/// The filled outline of a stroke's visible stretch: the edge half the size
/// away on each side of the centre line, with round caps, so that the width
/// follows every point's size.
struct StrokeOutline {
    /// Points on each semicircular cap.
    static let capSteps = 8

    let points: [StrokePoint]
    private let normals: [(x: Double, y: Double)]

    init(_ points: [StrokePoint]) {
        self.points = points
        var normals: [(x: Double, y: Double)] = []
        normals.reserveCapacity(points.count)
        var last = (x: 0.0, y: -1.0)
        for i in points.indices {
            let a = points[max(i - 1, 0)], b = points[min(i + 1, points.count - 1)]
            let dx = b.x - a.x, dy = b.y - a.y
            let length = (dx * dx + dy * dy).squareRoot()
            // Where the curve stops (repeated points), keep the last direction.
            if length > 1e-12 { last = (-dy / length, dx / length) }
            normals.append(last)
        }
        self.normals = normals
    }

    /// The polygon around points `range` of the stretch; caps where the range
    /// reaches an end of it.
    func polygon(_ range: ClosedRange<Int>) -> [DrawingPoint] {
        var result: [DrawingPoint] = []
        result.reserveCapacity(2 * range.count + 2 * Self.capSteps + 2)
        for i in range { result.append(edge(i, side: 1)) }
        if range.upperBound == points.count - 1 { cap(range.upperBound, forward: true, into: &result) }
        for i in range.reversed() { result.append(edge(i, side: -1)) }
        if range.lowerBound == 0 { cap(0, forward: false, into: &result) }
        return result
    }

    private func edge(_ i: Int, side: Double) -> DrawingPoint {
        let p = points[i], n = normals[i], r = p.size / 2
        return DrawingPoint(x: p.x + side * r * n.x, y: p.y + side * r * n.y)
    }

    /// The half circle from one side round the end to the other, the end's side
    /// points themselves excluded.
    private func cap(_ i: Int, forward: Bool, into result: inout [DrawingPoint]) {
        let p = points[i], r = p.size / 2
        let n = forward ? normals[i] : (x: -normals[i].x, y: -normals[i].y)
        // Tangent pointing out of the stroke at this end.
        let t = (x: n.y, y: -n.x)
        for k in 1..<Self.capSteps {
            let angle = Double.pi * Double(k) / Double(Self.capSteps)
            let c = PenMath.cos(angle), s = PenMath.sin(angle)
            result.append(DrawingPoint(x: p.x + r * (c * n.x + s * t.x), y: p.y + r * (c * n.y + s * t.y)))
        }
    }
}
