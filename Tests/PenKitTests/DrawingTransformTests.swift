import PenTestSupport
import Testing
@testable import PenKit

private func close(_ a: Double, _ b: Double, _ tolerance: Double = 1e-9) -> Bool {
    abs(a - b) <= tolerance * max(1, abs(a), abs(b))
}

@Test func transformedDrawingInterpolatesToTheTransformedPoints() {
    var g = SeededGenerator(seed: 11)
    for _ in 0..<100 {
        let stroke = RandomDrawing.stroke(&g, id: 1)
        let t = RandomDrawing.transform(&g, similarity: Bool.random(using: &g))
        let moved = Drawing(strokes: [stroke]).transformed(using: t).strokes[0]
        for stride in [StrokePath.Stride.distance(0.7), .time(0.004), .parametricStep(0.3)] {
            let before = stroke.visiblePoints(by: stride)[0], after = moved.visiblePoints(by: stride)[0]
            #expect(before.count == after.count, "\(stride)")
            for (p, q) in zip(before, after) {
                let expected = t.apply(x: p.x, y: p.y)
                #expect(close(q.x, expected.x) && close(q.y, expected.y), "\(stride)")
                #expect(close(q.size, p.size * abs(t.a * t.d - t.b * t.c).squareRoot()))
                #expect(q.timeOffset == p.timeOffset && q.force == p.force)
            }
        }
    }
}

@Test func transformThenInverseGivesTheSamePoints() {
    var g = SeededGenerator(seed: 12)
    for _ in 0..<100 {
        let drawing = RandomDrawing.drawing(&g, strokes: 3)
        let t = RandomDrawing.transform(&g, similarity: false)
        let back = drawing.transformed(using: t).transformed(using: t.inverted!)
        for (a, b) in zip(drawing.strokes, back.strokes) {
            for (p, q) in zip(a.visiblePoints(by: .distance(0.5))[0], b.visiblePoints(by: .distance(0.5))[0]) {
                #expect(close(p.x, q.x, 1e-8) && close(p.y, q.y, 1e-8) && close(p.size, q.size, 1e-8))
            }
        }
    }
}

@Test func distanceStridesScaleWithASimilarityTransform() {
    var g = SeededGenerator(seed: 13)
    for _ in 0..<100 {
        let stroke = RandomDrawing.stroke(&g, id: 1, count: 30)
        let t = RandomDrawing.transform(&g, similarity: true)
        let scale = t.widthScale
        let points = Drawing(strokes: [stroke]).transformed(using: t).strokes[0].visiblePoints(by: .distance(1))[0]
        // Consecutive points are 1 mm apart along the path, so at most `scale` apart in a straight line
        // (the path's arc-length table is within 1 % + 0.001 mm, docs/strokes.md).
        for (p, q) in zip(points, points.dropFirst()) {
            let d = ((q.x - p.x) * (q.x - p.x) + (q.y - p.y) * (q.y - p.y)).squareRoot()
            #expect(d <= scale * 1.01 + 0.001)
        }
    }
}

@Test func boundsCoverEveryVisiblePointAndFollowTheTransform() {
    var g = SeededGenerator(seed: 14)
    for _ in 0..<50 {
        let drawing = RandomDrawing.drawing(&g, strokes: 4)
        let t = RandomDrawing.transform(&g, similarity: true)
        let moved = drawing.transformed(using: t)
        let b = moved.bounds!
        for stroke in moved.strokes {
            for p in stroke.visiblePoints(by: .parametricStep(0.1)).joined() {
                #expect(b.contains(x: p.x, y: p.y))
            }
        }
        #expect(moved.appending(drawing).bounds == moved.bounds!.union(drawing.bounds!))
    }
}

@Test func drawingsAreValuesSoSnapshotsMakeUndo() {
    var g = SeededGenerator(seed: 15)
    var drawing = RandomDrawing.drawing(&g, strokes: 5)
    var undo: [Drawing] = []
    for step in 0..<20 {
        undo.append(drawing)  // the snapshot: a copy, shared storage until the next change
        switch step % 4 {
        case 0: drawing.append(RandomDrawing.stroke(&g, id: UInt64(100 + step)))
        case 1: drawing.remove(at: 0)
        case 2: drawing.erase(along: RandomDrawing.eraserPath(&g), with: EraserTool(.pixel, width: 4))
        default: drawing = drawing.transformed(using: .translation(x: 1, y: 2))
        }
        #expect(undo.last! != drawing || step % 4 == 2, "each change but a missed erase changes the drawing")
    }
    // Undo all the way: every snapshot is still the drawing it was.
    var replayed = undo[0]
    #expect(replayed.strokes.count == 5)
    replayed.append(RandomDrawing.stroke(&g, id: 999))
    #expect(undo[0].strokes.count == 5, "changing a restored copy leaves the snapshot alone")
    #expect(undo[1].strokes.count == 6 && undo[2].strokes.count == 5)
}
