@testable import PenKit
import PenTestSupport

/// Seeded random drawings for the property tests: strokes are random walks of
/// pen samples, assembled as the engine assembles them (ink response, fitted path).
enum RandomDrawing {
    static func stroke(_ g: inout SeededGenerator, id: UInt64, near center: DrawingPoint? = nil,
                       count: Int? = nil) -> Stroke {
        let n = count ?? Int.random(in: 1...40, using: &g)
        var t = UInt64.random(in: 1_000_000...9_000_000, using: &g)
        var x = center?.x ?? Double.random(in: 0...100, using: &g)
        var y = center?.y ?? Double.random(in: 0...80, using: &g)
        var heading = Double.random(in: 0..<(2 * .pi), using: &g)
        let samples = (0..<n).map { _ -> Sample in
            t += UInt64.random(in: 1_000...10_000, using: &g)
            heading += Double.random(in: -0.5...0.5, using: &g)
            let step = Double.random(in: 0.2...2, using: &g)
            x += step * PenMath.cos(heading)
            y += step * PenMath.sin(heading)
            return Sample(time: t, x: x, y: y, force: .random(in: 0...1, using: &g),
                          azimuth: .random(in: 0..<(2 * .pi), using: &g), altitude: .random(in: 0.4...1.57, using: &g))
        }
        let type = [Ink.InkType.pen, .pencil, .marker].randomElement(using: &g)!
        let ink = Ink(type, color: InkColor(red: .random(in: 0...1, using: &g), green: 0.2, blue: 0.4,
                                            alpha: .random(in: 0.3...1, using: &g)),
                      width: .random(in: 0.5...3, using: &g))
        return Stroke(id: id, tool: ToolIdentity(type: .pen, serial: UInt64.random(in: 0...99, using: &g)), ink: ink,
                      cancelled: Bool.random(using: &g), samples: samples)
    }

    static func drawing(_ g: inout SeededGenerator, strokes: Int) -> Drawing {
        Drawing(strokes: (0..<strokes).map { stroke(&g, id: UInt64($0 + 1)) })
    }

    /// A polyline wandering over the area strokes are drawn in.
    static func eraserPath(_ g: inout SeededGenerator, near center: DrawingPoint? = nil) -> [DrawingPoint] {
        var x = center?.x ?? Double.random(in: 0...100, using: &g)
        var y = center?.y ?? Double.random(in: 0...80, using: &g)
        var heading = Double.random(in: 0..<(2 * .pi), using: &g)
        return (0..<Int.random(in: 1...30, using: &g)).map { _ in
            heading += Double.random(in: -0.4...0.4, using: &g)
            x += 1.5 * PenMath.cos(heading)
            y += 1.5 * PenMath.sin(heading)
            return DrawingPoint(x: x, y: y)
        }
    }

    static func transform(_ g: inout SeededGenerator, similarity: Bool) -> AffineTransform {
        let s = Double.random(in: 0.3...3, using: &g)
        var t = AffineTransform.rotation(.random(in: -3...3, using: &g))
            .concatenating(.scale(x: s, y: similarity ? s : .random(in: 0.3...3, using: &g)))
            .concatenating(.translation(x: .random(in: -50...50, using: &g), y: .random(in: -50...50, using: &g)))
        if !similarity { t.c += .random(in: -0.5...0.5, using: &g) }
        return t
    }
}

/// Geometry written again for the tests, apart from the eraser's own.
enum BruteForce {
    static func distance(_ x: Double, _ y: Double, _ polyline: [DrawingPoint]) -> Double {
        BruteForceGeometry.distance(x, y, polyline)
    }

    /// Smallest gap between a stroke's visible outline and a polyline (negative: overlap),
    /// from the path at 1/64 of a parameter unit.
    static func outlineGap(_ stroke: Stroke, _ polyline: [DrawingPoint]) -> Double {
        var best = Double.infinity
        for part in stroke.visiblePoints(by: .parametricStep(1.0 / 64)) {
            for p in part { best = min(best, distance(p.x, p.y, polyline) - p.size / 2) }
        }
        return best
    }
}
