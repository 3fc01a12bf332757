import PenKit
@testable import penkit
import Testing

/// The PNG rasterizer's coverage against areas worked out by hand.
@Test func coverageIsTheAreaInsideEachPixel() {
    // A rectangle from x 2.25 to 7.75 and y 1.5 to 4.5: 5.5 × 3 = 16.5 pixels of area.
    let rectangle: [(x: Double, y: Double)] = [(2.25, 1.5), (7.75, 1.5), (7.75, 4.5), (2.25, 4.5)]
    let layer = PolygonRaster.coverage(of: [rectangle], clipWidth: 20, clipHeight: 20)
    let total = layer.values.reduce(0, +)
    #expect(abs(total - 16.5) < 1e-4, "\(total)")
    #expect(abs(layer.value(x: 5, y: 3) - 1) < 1e-6)
    #expect(abs(layer.value(x: 2, y: 3) - 0.75) < 1e-6, "three quarters of pixel 2 lies right of x 2.25")
    #expect(layer.value(x: 9, y: 3) == 0 && layer.value(x: 5, y: 6) == 0)
}

@Test func nonzeroFillCountsOverlapsOnceAndOppositeWindingAsAHole() {
    let outer: [(x: Double, y: Double)] = [(0, 0), (10, 0), (10, 10), (0, 10)]
    let inner: [(x: Double, y: Double)] = [(3, 3), (7, 3), (7, 7), (3, 7)]
    // The same way round: the union, 100 pixels, never more than 1 a pixel.
    let same = PolygonRaster.coverage(of: [outer, inner], clipWidth: 20, clipHeight: 20)
    #expect(abs(same.values.reduce(0, +) - 100) < 1e-3 && same.values.allSatisfy { $0 <= 1 + 1e-6 })
    // The other way round: a 4 × 4 hole.
    let hole = PolygonRaster.coverage(of: [outer, inner.reversed()], clipWidth: 20, clipHeight: 20)
    #expect(abs(hole.values.reduce(0, +) - 84) < 1e-3)
    #expect(hole.value(x: 5, y: 5) == 0)
}

@Test func aDrawingRastersOnATransparentBackground() {
    let samples = (0...20).map { i in Sample(time: UInt64(i) * 10_000, x: Double(i), y: 10, force: 0.5, altitude: .pi / 2) }
    let stroke = Stroke(id: 1, tool: ToolIdentity(type: .pen), ink: Ink(.monoline, color: InkColor(red: 1, green: 0, blue: 0), width: 2),
                        cancelled: false, samples: samples)
    let raster = DrawingRaster(Drawing(strokes: [stroke]), scale: 4)
    let rgba = raster.rgba8
    // The viewport is the stroke's bounds (x −1 … 21, y 9 … 11) plus 5 mm: 32 × 12 mm, 128 × 48 pixels.
    #expect(raster.width == 128 && raster.height == 48, "\(raster.width) × \(raster.height)")
    func pixel(_ xMM: Double, _ yMM: Double) -> [UInt8] {
        let x = Int((xMM - raster.originX) * 4), y = Int((yMM - raster.originY) * 4)
        return Array(rgba[((y * raster.width + x) * 4)..<((y * raster.width + x) * 4 + 4)])
    }
    #expect(pixel(10, 10) == [255, 0, 0, 255], "opaque red on the line")
    #expect(pixel(10, 12.5) == [0, 0, 0, 0] && pixel(-3, 10) == [0, 0, 0, 0], "transparent off it")
}
