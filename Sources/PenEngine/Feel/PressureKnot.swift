/// One point of a pressure curve given as points (`pressure-curve = points X:Y X:Y …`). Two
/// points may share an x: the curve steps there, the first y its value just below x, the second
/// its value from x on. That is how a curve with jumps, as mutter 46's table lookup has, is
/// reproduced exactly instead of smoothed over.
package struct PressureKnot: Sendable, Hashable {
    package var x: Double
    package var y: Double

    package init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    /// The most points a curve takes: enough for a 256-entry table with a step at every entry
    /// (mutter's), few enough that a config line stays short of the protocol's 64 KB.
    package static let maximumCount = 1_024

    /// Why `knots` cannot be a curve, or nil when it can: 2 to `maximumCount` points, each
    /// coordinate in [0,1], x from 0 to 1 never decreasing, no more than two at one x.
    package static func problem(with knots: [PressureKnot]) -> String? {
        guard knots.count >= 2, knots.count <= maximumCount else {
            return "a curve of points needs 2 to \(maximumCount) points, not \(knots.count)"
        }
        guard knots.allSatisfy({ (0...1).contains($0.x) && (0...1).contains($0.y) }) else {
            return "every point's X and Y must be from 0 to 1"
        }
        guard knots.first?.x == 0, knots.last?.x == 1 else { return "the first point's X must be 0 and the last's 1" }
        for i in 1..<knots.count {
            if knots[i].x < knots[i - 1].x { return "the points' X must not decrease (\(knots[i - 1].x) then \(knots[i].x))" }
            if i >= 2, knots[i].x == knots[i - 2].x { return "at most two points may share an X (a step), not three at \(knots[i].x)" }
        }
        return nil
    }

    /// y at `x` in [0,1]: the straight line between the points around x; at a step, the later
    /// point's y. Binary search over the table, no allocation: it runs per sample.
    static func value(at x: Double, in knots: [PressureKnot]) -> Double {
        // The last point at or before x (the second of a step at x).
        var low = 0, high = knots.count - 1
        if x >= knots[high].x { return knots[high].y }
        while high - low > 1 {
            let mid = (low + high) / 2
            if knots[mid].x <= x { low = mid } else { high = mid }
        }
        let a = knots[low], b = knots[high]
        guard b.x > a.x else { return b.y }
        return a.y + (b.y - a.y) * (x - a.x) / (b.x - a.x)
    }
}
