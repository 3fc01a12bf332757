import Testing
@testable import PenKit

/// A straight 20 mm stroke along x whose force rises from 0 to 1.
private func rising(_ ink: Ink, id: UInt64 = 1) -> Stroke {
    let samples = (0...20).map { i in
        Sample(time: UInt64(i) * 10_000, x: Double(i), y: 10, force: Double(i) / 20, altitude: .pi / 2)
    }
    return Stroke(id: id, tool: ToolIdentity(type: .pen), ink: ink, cancelled: false, samples: samples)
}

private func count(_ needle: String, in text: String) -> Int {
    text.components(separatedBy: needle).count - 1
}

private func opacities(_ svg: String) -> Set<String> {
    Set(svg.split(separator: "\"").enumerated().compactMap { i, part in
        i > 0 && svg.split(separator: "\"")[i - 1].hasSuffix("fill-opacity=") ? String(part) : nil
    })
}

/// The half-width of a piece's outline at x (the largest |y − 10| of its ring vertices within 0.2 mm of x).
private func halfWidth(_ pieces: [OutlinePiece], at x: Double) -> Double {
    let vertices: [DrawingPoint] = pieces.flatMap { $0.rings.flatMap { $0 } }
    return vertices.filter { abs($0.x - x) < 0.2 }.map { abs($0.y - 10) }.max() ?? 0
}

@Test func penStrokeWidensWithForceInOneOpaquePiece() {
    let stroke = rising(Ink(.pen, width: 2))
    let pieces = StrokePieces.pieces(of: stroke)
    // Half of size = w (0.25 + 1.5 f) / (1 + v/1000) with w 2, v 100 mm/s (1 mm each 10 ms):
    // 0.5 / 1.1 / 2 = 0.227 at f 0 (x 0), 3.5 / 1.1 / 2 = 1.591 at f 1 (x 20).
    #expect(pieces.count == 1 && pieces[0].opacity == 1)
    #expect(abs(halfWidth(pieces, at: 0) - 0.227) < 0.01)
    #expect(abs(halfWidth(pieces, at: 20) - 1.591) < 0.01)
    let svg = DrawingSVG.render(Drawing(strokes: [stroke]))
    #expect(count("<path", in: svg) == 1 && opacities(svg).isEmpty, "one opaque path")
    #expect(!svg.contains("filter") && !svg.contains("mask"))
}

@Test func pencilDarkensWithForceThroughAPaintedMaskUnderASeededGrain() {
    var stroke = rising(Ink(.pencil, width: 1))
    stroke.randomSeed = 4242
    let pieces = StrokePieces.pieces(of: stroke)
    #expect(pieces.count > 16, "opacity follows force in 1/32 steps: \(pieces.map(\.opacity))")
    // The two end nibs go under the ribbon; its pieces are painted in order along the stroke,
    // each darker than the one before (no piece blends with another).
    #expect(pieces.prefix(2).allSatisfy { $0.rings.count == 1 })
    let ribbon = pieces.dropFirst(2)
    #expect(zip(ribbon, ribbon.dropFirst()).allSatisfy { $0.opacity < $1.opacity })
    let svg = DrawingSVG.render(Drawing(strokes: [stroke]))
    #expect(svg.contains("seed=\"4242\"") && svg.contains("filter=\"url(#g0)\""))
    #expect(count("<mask", in: svg) == 1 && count("<path", in: svg) == pieces.count && opacities(svg).isEmpty,
            "pieces are opaque greys in one mask")
}

@Test func markerIsOneMultipliedTranslucentPiece() {
    let svg = DrawingSVG.render(Drawing(strokes: [rising(Ink(.marker, width: 4))]))
    #expect(count("<path", in: svg) == 1)
    #expect(svg.contains("mix-blend-mode:multiply"))
    #expect(!opacities(svg).isEmpty && opacities(svg).allSatisfy { Double($0)! < 0.7 })
}

/// A straight marker stroke of constant force along `angle` (radians from x towards y), 20 mm long,
/// the barrel at `roll`.
private func straightMarker(angle: Double, roll: Double = 0) -> Stroke {
    let samples = (0...20).map { i in
        Sample(time: UInt64(i) * 10_000, x: 30 + Double(i) * PenMath.cos(angle), y: 10 + Double(i) * PenMath.sin(angle),
               force: 0.5, altitude: .pi / 2, roll: roll)
    }
    return Stroke(id: 1, tool: ToolIdentity(type: .brush), ink: Ink(.marker, width: 6), cancelled: false, samples: samples)
}

/// The outline's extent across a straight stroke along `angle`, at its middle (brute force over the rings' vertices).
private func widthAcross(_ stroke: Stroke, angle: Double) -> Double {
    let d = (x: PenMath.cos(angle), y: PenMath.sin(angle)), n = (x: -d.y, y: d.x)
    let mid = (x: 30 + 10 * d.x, y: 10 + 10 * d.y)
    var across: [Double] = []
    for piece in StrokePieces.pieces(of: stroke) {
        for ring in piece.rings {
            for p in ring {
                let dx: Double = p.x - mid.x, dy: Double = p.y - mid.y
                if abs(dx * d.x + dy * d.y) < 2 { across.append(dx * n.x + dy * n.y) }
            }
        }
    }
    return (across.max() ?? 0) - (across.min() ?? 0)
}

@Test func theChiselIsWideAcrossItsAxisAndThinAlongIt() {
    let axis = Ink.InkType.marker.nibAngle
    // Size 6 · (0.8 + 0.4 · 0.5) = 6 mm; height 0.3 of it.
    let across = widthAcross(straightMarker(angle: axis + .pi / 2), angle: axis + .pi / 2)
    let along = widthAcross(straightMarker(angle: axis), angle: axis)
    #expect(abs(across - 6) < 0.01, "\(across)")
    #expect(abs(along - 1.8) < 0.01, "\(along)")
    // Horizontal, 45° off the axis: between the two.
    let flat = widthAcross(straightMarker(angle: 0), angle: 0)
    #expect(flat > along + 1 && flat < across - 1, "\(flat)")
}

@Test func erasedRegionsBecomeAMaskAndTransformsAGroup() {
    var drawing = Drawing(strokes: [rising(Ink(.pen, width: 2))]).transformed(using: .rotation(0.5))
    drawing.erase(along: [DrawingPoint(x: 5, y: -20), DrawingPoint(x: 5, y: 40)], with: EraserTool(.pixel, width: 3))
    let svg = DrawingSVG.render(drawing)
    #expect(drawing.strokes.count == 2, "cut in two")
    #expect(count("<mask", in: svg) == 2 && count("transform=\"matrix(", in: svg) >= 2)
    #expect(!DrawingSVG.render(Drawing(strokes: [rising(Ink(.eraser))])).contains("<path"), "eraser strokes are not drawn")
}

/// Markup over other content: `transparent` drops the white background and nothing else.
@Test func aTransparentBackgroundIsTheSameSVGWithoutItsWhiteRectangle() {
    let drawing = Drawing(strokes: [rising(Ink(.pen, width: 2))])
    let white = DrawingSVG.render(drawing), clear = DrawingSVG.render(drawing, transparent: true)
    #expect(count("fill=\"white\"", in: white) == 1)
    #expect(count("fill=\"white\"", in: clear) == 0)
    let lines = white.split(separator: "\n").filter { !$0.contains("fill=\"white\"") }
    #expect(lines == clear.split(separator: "\n"))
}

/// The barrel's roll turns the chisel (PencilKit turns shaped nibs with Apple Pencil Pro's roll):
/// drawn along the ink's axis, thin without roll, as wide as the nib with the barrel a quarter turn
/// round, thin again at a half turn.
@Test func theBarrelsRollTurnsTheChisel() {
    let axis = Ink.InkType.marker.nibAngle
    let still = widthAcross(straightMarker(angle: axis), angle: axis)
    let quarter = widthAcross(straightMarker(angle: axis, roll: .pi / 2), angle: axis)
    let half = widthAcross(straightMarker(angle: axis, roll: .pi), angle: axis)
    #expect(abs(still - 1.8) < 0.01, "\(still)")
    #expect(abs(quarter - 6) < 0.01, "\(quarter)")
    #expect(abs(half - 1.8) < 0.01, "\(half)")
}
