/// A pressure curve, in one of two forms. The Bézier, as GNOME's and Wacom's drivers offer it:
/// the cubic from (0,0) to (1,1) with control points (x1,y1) and (x2,y2), all in [0,1]. Or a
/// table of points joined by straight lines (`knots`), for curves a Bézier cannot draw, such as
/// the one mutter 46 and later apply (docs/daemon.md, "pressure-curve"). Input pressure is the
/// curve's x, output its y.
package struct PressureCurve: Sendable, Hashable {
    package var x1: Double, y1: Double, x2: Double, y2: Double
    /// Empty for the Bézier; otherwise the points, x non-decreasing from 0 to 1.
    package var knots: [PressureKnot] = []

    package init(x1: Double, y1: Double, x2: Double, y2: Double) {
        self.x1 = x1
        self.y1 = y1
        self.x2 = x2
        self.y2 = y2
    }

    /// The straight line: output equals input.
    package static let linear = PressureCurve(x1: 0, y1: 0, x2: 1, y2: 1)

    /// y where the curve's x equals `x` (clamped to [0,1]). With control x's in [0,1] the curve's
    /// x grows monotonically in t, so bisection on t finds the one t; 60 halvings reach
    /// double precision. Plain arithmetic: it runs per sample on the input thread.
    package func value(at x: Double) -> Double {
        let x = min(max(x.isFinite ? x : 0, 0), 1)
        if !knots.isEmpty { return PressureKnot.value(at: x, in: knots) }
        var low = 0.0, high = 1.0
        for _ in 0..<60 {
            let mid = (low + high) / 2
            if Self.bezier(mid, x1, x2) < x { low = mid } else { high = mid }
        }
        return min(max(Self.bezier((low + high) / 2, y1, y2), 0), 1)
    }

    /// One coordinate of the cubic Bézier with end points 0 and 1 and control values c1, c2.
    static func bezier(_ t: Double, _ c1: Double, _ c2: Double) -> Double {
        let u = 1 - t
        return 3 * u * u * t * c1 + 3 * u * t * t * c2 + t * t * t
    }
}
