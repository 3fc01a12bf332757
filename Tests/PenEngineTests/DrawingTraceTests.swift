import PenEngine
import PenEvaluation
import PenKit
import PenTestSupport
import Testing

/// The Cintiq trace's eraser strokes (the pen turned round: BTN_TOOL_RUBBER) applied
/// to a drawing, checked against the geometry: each stroke's rendered outline (the
/// disc of its size at every point) against the eraser's reach (half its width
/// around its path). Distances are computed here from the points, apart from the
/// eraser's own code.
@Suite struct DrawingTraceTests {
    static let trace = "wacom-cintiq-22hdt-pen.evemu"

    static func strokes() throws -> [Stroke] {
        EngineReplay().messages(try Traces.inputs(trace)).finalized.map(\.stroke)
    }

    static func distance(_ x: Double, _ y: Double, _ polyline: [DrawingPoint]) -> Double {
        BruteForceGeometry.distance(x, y, polyline)
    }

    /// The eraser's path in drawing coordinates, as finely as the eraser uses it.
    static func eraserPath(_ eraser: Stroke) -> [DrawingPoint] {
        eraser.visiblePoints(by: .parametricStep(1.0 / 8)).joined().map { DrawingPoint(x: $0.x, y: $0.y) }
    }

    static func gap(_ stroke: Stroke, _ path: [DrawingPoint]) -> Double {
        stroke.visiblePoints(by: .parametricStep(1.0 / 64)).joined()
            .map { distance($0.x, $0.y, path) - $0.size / 2 }.min() ?? .infinity
    }

    @Test func eraserStrokesAreTheRubbersTipPairsAndNeverInk() throws {
        let strokes = try Self.strokes()
        let (_, reference) = try Traces.reference(Self.trace)
        let rubberPairs = reference.tipPairs.filter { $0.tool.type == .eraser }
        let erasers = strokes.filter { $0.tool.type == .eraser }
        #expect(erasers.count == rubberPairs.count && erasers.count >= 5)
        #expect(erasers.allSatisfy { $0.ink.type == .eraser })
        for mode in EraserTool.Mode.allCases {
            var drawing = Drawing()
            for stroke in strokes { drawing.apply(stroke, eraser: EraserTool(mode)) }
            #expect(!drawing.strokes.contains { $0.tool.type == .eraser || $0.ink.type == .eraser })
        }
    }

    @Test(arguments: EraserTool.Mode.allCases)
    func inRecordedOrderEachEraserTakesWhatItReaches(mode: EraserTool.Mode) throws {
        let eraser = EraserTool(mode)
        var drawing = Drawing()
        for stroke in try Self.strokes() {
            guard stroke.tool.type == .eraser else {
                drawing.apply(stroke, eraser: eraser)
                continue
            }
            let path = Self.eraserPath(stroke)
            let before = drawing
            drawing.apply(stroke, eraser: eraser)
            for earlier in before.strokes {
                let gap = Self.gap(earlier, path) - eraser.width / 2
                if gap > 0.01 { #expect(drawing.strokes.contains(earlier), "out of reach by \(gap) mm, yet changed") }
                if gap < -0.01, mode == .object { #expect(!drawing.strokes.contains(earlier), "reached, yet kept") }
            }
        }
    }

    /// The trace's erasers pass over no earlier ink where they were recorded, so each
    /// is also moved (by its stroke transform) to cross the longest pen stroke at its middle.
    @Test(arguments: EraserTool.Mode.allCases)
    func movedOverInkEachEraserRemovesOrCutsIt(mode: EraserTool.Mode) throws {
        let strokes = try Self.strokes()
        let ink = strokes.filter { $0.tool.type == .pen }.max { $0.path.length < $1.path.length }!
        let inkMiddle = ink.path.interpolatedPoint(at: ink.path.parametricValue(0, offsetBy: .distance(ink.path.length / 2)))!
        let tool = EraserTool(mode)
        let radius = tool.width / 2
        for var eraser in strokes.filter({ $0.tool.type == .eraser }) {
            let middle = eraser.path.interpolatedPoint(at: eraser.path.maximumParameter / 2)!
            eraser.transform = .translation(x: inkMiddle.x - middle.x, y: inkMiddle.y - middle.y)
            let path = Self.eraserPath(eraser)
            #expect(Self.gap(ink, path) - radius < 0, "the moved eraser reaches the ink")
            var drawing = Drawing(strokes: [ink])
            let result = drawing.apply(eraser, eraser: tool)!
            switch mode {
            case .object:
                #expect(drawing.strokes.isEmpty && result.removed == 1)
            case .pixel:
                #expect(result.touched == 1)
                // What is left is out of the eraser's reach, and everything out of reach is left.
                for piece in drawing.strokes {
                    for range in piece.maskedPathRanges where range.upperBound - range.lowerBound > 2e-9 {
                        let inner = (range.lowerBound + 1e-9)...(range.upperBound - 1e-9)
                        for p in piece.path.interpolatedPoints(in: inner, by: .parametricStep(1.0 / 64)) {
                            #expect(Self.distance(p.x, p.y, path) > radius - 1e-9)
                        }
                    }
                }
                let visible = drawing.strokes.reduce(0.0) { total, piece in
                    total + piece.maskedPathRanges.reduce(0.0) { $0 + piece.path.length(to: $1.upperBound) - piece.path.length(to: $1.lowerBound) }
                }
                let outOfReach = ink.path.interpolatedPoints(by: .distance(0.05))
                    .filter { Self.distance($0.x, $0.y, path) > radius }.count
                // Visible length matches the ink's length out of reach, to the 0.05 mm sampling.
                #expect(abs(visible - Double(outOfReach) * 0.05) < 0.05 * Double(1 + 2 * drawing.strokes.count) + 0.01 * ink.path.length,
                        "\(visible) mm visible, \(Double(outOfReach) * 0.05) mm out of reach")
                #expect(visible < ink.path.length - tool.width * 0.5, "a cut at least half the eraser's width")
            }
        }
    }
}

/// The engine's ink choice: a tool's own serial first, then its type; the eraser end stays an eraser.
@Test func inkFollowsTheToolSerialThenItsType() {
    var configuration = EngineConfiguration()
    configuration.inks[.pen] = Ink(.pencil, width: 2)
    configuration.serialInks[0x1234] = Ink(.marker, width: 9)
    configuration.serialInks[0x99] = Ink(.pen)
    #expect(configuration.ink(for: ToolIdentity(type: .pen, serial: 0x1234)) == Ink(.marker, width: 9))
    #expect(configuration.ink(for: ToolIdentity(type: .pen, serial: 0x5)) == Ink(.pencil, width: 2))
    #expect(configuration.ink(for: ToolIdentity(type: .pen)) == Ink(.pencil, width: 2))
    #expect(configuration.ink(for: ToolIdentity(type: .eraser, serial: 0x99)) == Ink(.eraser))
    #expect(configuration.ink(for: ToolIdentity(type: .airbrush)).type == .marker)
}
