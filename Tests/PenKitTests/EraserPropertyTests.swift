import PenTestSupport
import Testing
@testable import PenKit

/// A random stroke and an eraser path crossing near it.
private func strokeAndEraser(_ g: inout SeededGenerator) -> (Stroke, [DrawingPoint]) {
    let stroke = RandomDrawing.stroke(&g, id: 1, count: Int.random(in: 2...40, using: &g))
    let mid = stroke.path.interpolatedPoint(at: stroke.path.maximumParameter * .random(in: 0...1, using: &g))!
    return (stroke, RandomDrawing.eraserPath(&g, near: DrawingPoint(x: mid.x - 10, y: mid.y - 5)))
}

@Test func maskedPathRangesAgreeWithTheMaskOnAFineGrid() {
    var g = SeededGenerator(seed: 21)
    var checked = 0
    for _ in 0..<150 {
        var (stroke, path) = strokeAndEraser(&g)
        let radius = Double.random(in: 0.5...4, using: &g)
        stroke.mask = StrokeMask(erased: [ErasedRegion(points: path, radius: radius)])
        let ranges = stroke.maskedPathRanges
        // Sorted, disjoint, inside the path.
        for (a, b) in zip(ranges, ranges.dropFirst()) { #expect(a.upperBound < b.lowerBound) }
        #expect(ranges.allSatisfy { $0.lowerBound >= 0 && $0.upperBound <= stroke.path.maximumParameter })
        // Every grid point is visible exactly when it lies in a range (1e-9 from a boundary is left out).
        let end = stroke.path.maximumParameter
        for k in 0...Int(end * 256) {
            let u = Double(k) / 256
            if ranges.contains(where: { abs($0.lowerBound - u) < 1e-9 || abs($0.upperBound - u) < 1e-9 }) { continue }
            let p = stroke.path.interpolatedPoint(at: u)!
            let erased = BruteForce.distance(p.x, p.y, path) <= radius
            #expect(erased == !ranges.contains(where: { $0.contains(u) }), "u \(u) of \(end)")
            checked += 1
        }
    }
    #expect(checked > 10_000)
}

@Test func aStrokeWithoutMaskShowsItsWholePathAndAClipShowsItsRange() {
    var g = SeededGenerator(seed: 22)
    for _ in 0..<50 {
        var stroke = RandomDrawing.stroke(&g, id: 1, count: Int.random(in: 2...30, using: &g))
        let end = stroke.path.maximumParameter
        #expect(stroke.maskedPathRanges == [0...end])
        let a = Double.random(in: 0...end, using: &g), b = Double.random(in: a...end, using: &g)
        stroke.mask = StrokeMask(clip: a...b)
        #expect(stroke.maskedPathRanges == [a...b])
        stroke.mask = StrokeMask(clip: (end + 1)...(end + 2))
        #expect(stroke.maskedPathRanges.isEmpty)
    }
}

@Test func objectEraserRemovesExactlyTheStrokesItsPathTouches() {
    var g = SeededGenerator(seed: 23)
    var removed = 0, kept = 0
    for _ in 0..<40 {
        // Strokes crowded into 30 mm × 30 mm, the eraser starting among them.
        let drawing = Drawing(strokes: (1...8).map { id in
            RandomDrawing.stroke(&g, id: UInt64(id), near: DrawingPoint(x: .random(in: 0...30, using: &g), y: .random(in: 0...30, using: &g)))
        })
        let path = RandomDrawing.eraserPath(&g, near: DrawingPoint(x: .random(in: 0...30, using: &g), y: .random(in: 0...30, using: &g)))
        let eraser = EraserTool(.object, width: .random(in: 0.5...6, using: &g))
        var erased = drawing
        erased.erase(along: path, with: eraser)
        for stroke in drawing.strokes {
            let gap = BruteForce.outlineGap(stroke, path) - eraser.width / 2
            if abs(gap) < 0.01 { continue }  // within sampling of the boundary: either answer is right
            let survived = erased.strokes.contains(stroke)
            #expect(survived == (gap > 0), "gap \(gap)")
            if survived { kept += 1 } else { removed += 1 }
        }
        #expect(erased.strokes.allSatisfy { drawing.strokes.contains($0) }, "the survivors are untouched")
    }
    #expect(removed > 20 && kept > 20, "\(removed) removed, \(kept) kept")
}

@Test func pixelEraserCutsAwayWhatItTouchesAndNothingElse() {
    var g = SeededGenerator(seed: 24)
    var splits = 0, cuts = 0
    for _ in 0..<80 {
        let (stroke, path) = strokeAndEraser(&g)
        let other = RandomDrawing.stroke(&g, id: 2)
        let eraser = EraserTool(.pixel, width: .random(in: 0.5...6, using: &g))
        let radius = eraser.width / 2
        var drawing = Drawing(strokes: [stroke, other])
        let result = drawing.erase(along: path, with: eraser)
        splits += result.split
        cuts += result.cut
        // Untouched strokes are unchanged.
        for original in [stroke, other] where BruteForce.outlineGap(original, path) - radius > 0.01 {
            #expect(drawing.strokes.contains(original))
        }
        let pieces = drawing.strokes.filter { $0.id == 1 }
        // Erased parts are gone: no visible point of any piece lies in the eraser's reach.
        for piece in pieces {
            for range in piece.maskedPathRanges where range.upperBound - range.lowerBound > 2e-9 {
                let inner = (range.lowerBound + 1e-9)...(range.upperBound - 1e-9)
                for p in piece.path.interpolatedPoints(in: inner, by: .parametricStep(1.0 / 128)) {
                    #expect(BruteForce.distance(p.x, p.y, path) > radius - 1e-9)
                }
            }
        }
        // Nothing else is lost: every point of the original out of reach is visible in some piece.
        // Pieces keep the path's coordinates; their parameter is shifted by a whole number.
        let shown = pieces.map { piece in
            (shift: Double(stroke.path.controlPoints.firstIndex(of: piece.path.controlPoints[0]) ?? 0),
             ranges: piece.maskedPathRanges, path: piece.path)
        }
        for k in 0...Int(stroke.path.maximumParameter * 64) {
            let u = Double(k) / 64
            let p = stroke.path.interpolatedPoint(at: u)!
            guard BruteForce.distance(p.x, p.y, path) > radius + 1e-6 else { continue }
            let visible = shown.contains { piece in
                piece.ranges.contains { $0.contains(u - piece.shift) } && piece.path.interpolatedPoint(at: u - piece.shift) == p
            }
            #expect(visible, "u \(u) lost")
        }
    }
    #expect(splits > 5 && cuts > 5, "both outcomes exercised: \(splits) splits, \(cuts) cuts")
}

@Test func eraserStrokesNeverBecomeInk() {
    var g = SeededGenerator(seed: 25)
    var drawing = RandomDrawing.drawing(&g, strokes: 3)
    var rubber = RandomDrawing.stroke(&g, id: 9)
    rubber.tool = ToolIdentity(type: .eraser)
    #expect(drawing.apply(rubber, eraser: EraserTool()) != nil)
    var eraserInk = RandomDrawing.stroke(&g, id: 10)
    eraserInk.ink = Ink(.eraser)
    #expect(drawing.apply(eraserInk, eraser: EraserTool(.pixel)) != nil)
    #expect(drawing.strokes.allSatisfy { $0.id < 9 })
    let ink = RandomDrawing.stroke(&g, id: 11)
    #expect(drawing.apply(ink, eraser: EraserTool()) == nil)
    #expect(drawing.strokes.last == ink)
}
