import PenTestSupport
import Testing
@testable import PenKit

/// The outline's polygons against the shape they stand for, computed apart from them: the
/// union of the nib (an ellipse of the point's size and height at the ink's nib angle) at
/// points every 0.01 mm along the path. Strokes turn sharply (up to 2.5 rad between samples)
/// so that ribbons fold; a point well inside the union must be filled under the nonzero rule
/// and a point well outside must not.
@Test func outlinesFillTheSweptNibAndNothingElse() {
    var g = SeededGenerator(seed: 77)
    var inside = 0, outside = 0
    for id in 0..<60 {
        var t: UInt64 = 1_000_000
        var x = 50.0, y = 50.0, heading = Double.random(in: 0..<(2 * .pi), using: &g)
        let samples = (0..<Int.random(in: 2...12, using: &g)).map { _ -> Sample in
            t += 5_000
            heading += Double.random(in: -2.5...2.5, using: &g)
            let step = Double.random(in: 0.1...2, using: &g)
            x += step * PenMath.cos(heading)
            y += step * PenMath.sin(heading)
            return Sample(time: t, x: x, y: y, force: .random(in: 0...1, using: &g), altitude: .random(in: 0.5...1.57, using: &g))
        }
        let type = [Ink.InkType.pen, .monoline, .pencil, .marker, .fountainPen, .crayon][id % 6]
        let stroke = Stroke(id: UInt64(id), tool: ToolIdentity(type: .pen), ink: Ink(type, width: .random(in: 1...4, using: &g)),
                            cancelled: false, samples: samples)
        let rings = StrokePieces.pieces(of: stroke).flatMap(\.rings)
        let nibs = stroke.path.interpolatedPoints(by: .distance(0.01))
        let angle = type.nibAngle
        let u = (x: PenMath.cos(angle), y: PenMath.sin(angle))
        // How far inside (negative) or outside the nearest nib q is, roughly in mm: the nib's
        // implicit function scaled by its smaller half-axis.
        func reach(_ qx: Double, _ qy: Double) -> Double {
            var best = Double.infinity
            for p in nibs {
                let a = p.size / 2, b = p.height / 2
                guard a > 0.06, b > 0.06 else { continue }
                let dx = qx - p.x, dy = qy - p.y
                let along = dx * u.x + dy * u.y, across = -dx * u.y + dy * u.x
                let f = ((along / a) * (along / a) + (across / b) * (across / b)).squareRoot()
                best = min(best, (f - 1) * min(a, b))
            }
            return best
        }
        guard let bounds = stroke.path.renderBounds else { continue }
        for _ in 0..<150 {
            let qx = Double.random(in: (bounds.minX - 1)...(bounds.maxX + 1), using: &g)
            let qy = Double.random(in: (bounds.minY - 1)...(bounds.maxY + 1), using: &g)
            let r = reach(qx, qy)
            let filled = winding(rings, qx, qy) != 0
            if r < -0.03 {
                inside += 1
                #expect(filled, "\(type) stroke \(id): (\(qx), \(qy)) is \(-r) mm inside the swept nib but not filled")
            } else if r > 0.03 {
                outside += 1
                #expect(!filled, "\(type) stroke \(id): (\(qx), \(qy)) is \(r) mm outside the swept nib but filled")
            }
        }
    }
    #expect(inside > 1000 && outside > 3000, "\(inside) inside, \(outside) outside")
}

/// The winding number of the rings around (x, y): signed crossings of a ray towards +x.
private func winding(_ rings: [[DrawingPoint]], _ x: Double, _ y: Double) -> Int {
    var w = 0
    for ring in rings {
        for i in ring.indices {
            let p = ring[i], q = ring[(i + 1) % ring.count]
            if p.y <= y, q.y > y, (q.x - p.x) * (y - p.y) - (x - p.x) * (q.y - p.y) > 0 { w += 1 }
            if p.y > y, q.y <= y, (q.x - p.x) * (y - p.y) - (x - p.x) * (q.y - p.y) < 0 { w -= 1 }
        }
    }
    return w
}
