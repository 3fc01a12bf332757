import PenEngine
import PenEvaluation
import PenKit
import Testing

/// How far the finalized strokes' B-spline strays from the measured samples, on
/// every shared trace. docs/strokes.md states these bounds.
@Suite struct CurveFidelityTests {
    struct Deviation {
        var atSamples = 0.0        // |curve(i) − sample i|, mm
        var betweenSamples = 0.0   // distance from the curve on [i, i+1] to the chord sample i → i+1, mm
        var strokes = 0
        var points = 0
    }

    static func measure() throws -> Deviation {
        var d = Deviation()
        for trace in Traces.all {
            for stroke in EngineReplay().messages(try Traces.inputs(trace)).finalized.map(\.stroke) {
                d.strokes += 1
                d.points += stroke.points.count
                let path = stroke.path
                for (i, p) in stroke.points.enumerated() {
                    let c = path.interpolatedPoint(at: Double(i))!
                    d.atSamples = max(d.atSamples, ((c.x - p.x) * (c.x - p.x) + (c.y - p.y) * (c.y - p.y)).squareRoot())
                    guard i + 1 < stroke.points.count else { continue }
                    let q = stroke.points[i + 1]
                    for k in 1..<32 {
                        let c = path.interpolatedPoint(at: Double(i) + Double(k) / 32)!
                        d.betweenSamples = max(d.betweenSamples, distance(c.x, c.y, toSegment: p.x, p.y, q.x, q.y))
                    }
                }
            }
        }
        return d
    }

    static func distance(_ x: Double, _ y: Double, toSegment ax: Double, _ ay: Double, _ bx: Double, _ by: Double) -> Double {
        let dx = bx - ax, dy = by - ay
        let length2 = dx * dx + dy * dy
        let t = length2 > 0 ? min(max(((x - ax) * dx + (y - ay) * dy) / length2, 0), 1) : 0
        let px = ax + t * dx - x, py = ay + t * dy - y
        return (px * px + py * py).squareRoot()
    }

    @Test func curveStaysWithinTheStatedDistanceOfTheSamples() throws {
        let d = try Self.measure()
        print("curve fidelity: \(d.strokes) strokes, \(d.points) points; max at samples \(d.atSamples) mm, "
              + "max between samples (to the chord) \(d.betweenSamples) mm")
        #expect(d.strokes > 30)
        #expect(d.atSamples < 1e-9)
        #expect(d.betweenSamples < 0.05)
    }
}
