import Foundation
import PenKit

/// Draws a `Drawing` into RGBA pixels with a transparent background: the same
/// outlines as DrawingSVG (`StrokePieces`), the same viewport (the drawing's
/// bounds plus `margin` mm), `scale` pixels a millimetre. Each stroke is painted
/// into its own alpha layer (pieces as levels, painted in order; erased regions
/// cut out; grain and softness applied), then composited with its colour over
/// the strokes below it (a marker multiplied onto them).
struct DrawingRaster {
    let scale: Double
    let originX: Double
    let originY: Double
    let width: Int
    let height: Int
    /// Premultiplied red, green, blue, alpha per pixel.
    private(set) var pixels: [Float]

    init(_ drawing: Drawing, scale: Double, margin: Double = 5) {
        let b = drawing.bounds ?? StrokeBounds(minX: 0, minY: 0, maxX: 10, maxY: 10)
        self.scale = scale
        originX = b.minX - margin
        originY = b.minY - margin
        // Less a millionth of a pixel before rounding up: 12 mm at 4 px/mm is 48 pixels, not the
        // 49 that 48.000000000001 would round to.
        width = max(Int(((b.width + 2 * margin) * scale - 1e-6).rounded(.up)), 1)
        height = max(Int(((b.height + 2 * margin) * scale - 1e-6).rounded(.up)), 1)
        pixels = [Float](repeating: 0, count: width * height * 4)
        for stroke in drawing.strokes where !stroke.ink.isEraser { draw(stroke) }
    }

    /// Path coordinates of `stroke` to pixel coordinates.
    private func toPixels(_ stroke: Stroke) -> (DrawingPoint) -> (x: Double, y: Double) {
        let t = stroke.transform
        return { p in
            let q = t.apply(x: p.x, y: p.y)
            return ((q.x - originX) * scale, (q.y - originY) * scale)
        }
    }

    private mutating func draw(_ stroke: Stroke) {
        let pieces = StrokePieces.pieces(of: stroke)
        guard pieces.contains(where: { $0.opacity > 0 }) else { return }
        let place = toPixels(stroke)
        let look = stroke.ink.type.look
        let controls = stroke.path.controlPoints
        let meanSize = controls.isEmpty ? 0 : controls.reduce(0) { $0 + $1.size } / Double(controls.count)
        let sigma = look.softness * meanSize * stroke.transform.widthScale * scale
        var coverages: [(CoverageLayer, Float)] = []
        var minX = Int.max, minY = Int.max, maxX = Int.min, maxY = Int.min
        for piece in pieces {
            let c = PolygonRaster.coverage(of: piece.rings.map { $0.map(place) }, clipWidth: width, clipHeight: height)
            guard c.width > 0, c.height > 0 else { continue }
            minX = min(minX, c.originX); minY = min(minY, c.originY)
            maxX = max(maxX, c.originX + c.width); maxY = max(maxY, c.originY + c.height)
            coverages.append((c, Float(piece.opacity)))
        }
        guard !coverages.isEmpty else { return }
        let pad = Int((3 * sigma).rounded(.up)) + 1
        let x0 = max(minX - pad, 0), y0 = max(minY - pad, 0)
        var alpha = CoverageLayer(originX: x0, originY: y0, width: min(maxX + pad, width) - x0, height: min(maxY + pad, height) - y0)
        for (c, level) in coverages { alpha.paint(c, level: level) }
        if let mask = stroke.mask, !mask.erased.isEmpty {
            alpha.cut(PolygonRaster.coverage(of: Self.erasedRings(mask).map { $0.map(place) }, clipWidth: width, clipHeight: height))
        }
        if let grain = look.grain {
            for i in alpha.values.indices where alpha.values[i] > 0 {
                let x = originX + (Double(i % alpha.width + alpha.originX) + 0.5) / scale
                let y = originY + (Double(i / alpha.width + alpha.originY) + 0.5) / scale
                let n = RasterEffects.grain(x: x, y: y, cell: grain, seed: stroke.randomSeed)
                alpha.values[i] *= RasterEffects.grainFactor(n, floor: look.grainFloor)
            }
        }
        RasterEffects.blur(&alpha, sigma: sigma)
        composite(alpha, color: stroke.ink.color, multiply: look.multiply)
    }

    /// An eraser's reach as rings in the stroke's path coordinates: a disc at each point of
    /// each region's polyline and a rectangle along each of its segments.
    private static func erasedRings(_ mask: StrokeMask) -> [[DrawingPoint]] {
        var rings: [[DrawingPoint]] = []
        for region in mask.erased {
            guard let inverse = region.frame.inverted else { continue }
            let points = region.points.map { p in
                let q = inverse.apply(x: p.x, y: p.y)
                return DrawingPoint(x: q.x, y: q.y)
            }
            let r = region.radius * inverse.widthScale
            for p in points {
                let count = 32
                rings.append((0..<count).map { k in
                    let phi = -2 * Double.pi * Double(k) / Double(count)
                    return DrawingPoint(x: p.x + r * cos(phi), y: p.y + r * sin(phi))
                })
            }
            for (a, b) in zip(points, points.dropFirst()) {
                let dx = b.x - a.x, dy = b.y - a.y, length = (dx * dx + dy * dy).squareRoot()
                guard length > 0 else { continue }
                let nx = -dy / length * r, ny = dx / length * r
                rings.append([DrawingPoint(x: a.x + nx, y: a.y + ny), DrawingPoint(x: b.x + nx, y: b.y + ny),
                              DrawingPoint(x: b.x - nx, y: b.y - ny), DrawingPoint(x: a.x - nx, y: a.y - ny)])
            }
        }
        return rings
    }

    /// Source-over, or multiply as CSS compositing defines it for a backdrop that may be
    /// transparent: result = src·(1 − αb) + dst·(1 − αs) + src·dst, all premultiplied.
    private mutating func composite(_ alpha: CoverageLayer, color: InkColor, multiply: Bool) {
        let r = Float(min(max(color.red, 0), 1)), g = Float(min(max(color.green, 0), 1)), b = Float(min(max(color.blue, 0), 1))
        for ly in 0..<alpha.height {
            for lx in 0..<alpha.width {
                let a = min(alpha.values[ly * alpha.width + lx], 1)
                guard a > 0 else { continue }
                let i = ((ly + alpha.originY) * width + lx + alpha.originX) * 4
                let src = [r * a, g * a, b * a, a]
                let backdrop = pixels[i + 3]
                for c in 0..<3 {
                    let dst = pixels[i + c]
                    pixels[i + c] = multiply ? src[c] * (1 - backdrop) + dst * (1 - a) + src[c] * dst : src[c] + dst * (1 - a)
                }
                pixels[i + 3] = a + backdrop * (1 - a)
            }
        }
    }

    /// Straight (not premultiplied) 8-bit RGBA, rows top to bottom.
    var rgba8: [UInt8] {
        var out = [UInt8](repeating: 0, count: width * height * 4)
        for p in 0..<(width * height) {
            let a = pixels[p * 4 + 3]
            let alpha = UInt8(min(max(a, 0), 1) * 255 + 0.5)
            // A pixel that rounds to transparent stays transparent black: the PNG's runs of zeros.
            guard alpha > 0 else { continue }
            for c in 0..<3 { out[p * 4 + c] = UInt8(min(max(pixels[p * 4 + c] / a, 0), 1) * 255 + 0.5) }
            out[p * 4 + 3] = alpha
        }
        return out
    }
}
