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

@Test func penStrokeWidensWithForceInOneOpaquePiece() {
    let svg = DrawingSVG.render(Drawing(strokes: [rising(Ink(.pen, width: 2))]))
    // Discs at the first and last points, radius half of size = w (0.25 + 1.5 f) / (1 + v/1000) with
    // w 2, v 100 mm/s (1 mm each 10 ms): 0.5 / 1.1 / 2 = 0.227 at f 0, 3.5 / 1.1 / 2 = 1.591 at f 1.
    #expect(svg.contains("M0.227,10A0.227,0.227"))
    #expect(svg.contains("M21.591,10A1.591,1.591"))
    #expect(opacities(svg) == ["1"])
    #expect(!svg.contains("filter") && !svg.contains("mask"))
}

@Test func pencilDarkensWithForceUnderASeededGrain() {
    var stroke = rising(Ink(.pencil, width: 1))
    stroke.randomSeed = 4242
    let svg = DrawingSVG.render(Drawing(strokes: [stroke]))
    #expect(opacities(svg).count > 8, "opacity follows force in 1/16 steps: \(opacities(svg).sorted())")
    #expect(svg.contains("seed=\"4242\"") && svg.contains("filter=\"url(#g0)\""))
}

@Test func markerIsOneMultipliedTranslucentPiece() {
    let svg = DrawingSVG.render(Drawing(strokes: [rising(Ink(.marker, width: 4))]))
    #expect(count("<path", in: svg) == 1)
    #expect(svg.contains("mix-blend-mode:multiply"))
    #expect(opacities(svg).allSatisfy { Double($0)! < 0.7 })
}

@Test func erasedRegionsBecomeAMaskAndTransformsAGroup() {
    var drawing = Drawing(strokes: [rising(Ink(.pen, width: 2))]).transformed(using: .rotation(0.5))
    drawing.erase(along: [DrawingPoint(x: 5, y: -20), DrawingPoint(x: 5, y: 40)], with: EraserTool(.pixel, width: 3))
    let svg = DrawingSVG.render(drawing)
    #expect(drawing.strokes.count == 2, "cut in two")
    #expect(count("<mask", in: svg) == 2 && count("transform=\"matrix(", in: svg) >= 2)
    #expect(!DrawingSVG.render(Drawing(strokes: [rising(Ink(.eraser))])).contains("<path"), "eraser strokes are not drawn")
}
