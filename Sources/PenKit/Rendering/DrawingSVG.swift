/// Draws a `Drawing` as SVG, in mm. Each stroke is its `StrokePieces`: the
/// outline of its visible ranges, built from the smooth path every quarter
/// millimetre, cut where its opacity changes. The stroke's transform is the
/// group's, its erased regions an SVG mask, its ink decides the look (`InkLook`):
///
/// - one opacity (pen, monoline, fountain pen, marker): one path, the ink's
///   colour at that opacity;
/// - changing opacity (pencil, crayon, watercolour): the pieces painted as
///   opaque grey levels into a luminance mask, in order, and the ink's colour
///   filled through it, so that opacity never doubles where pieces meet;
/// - grain (pencil, crayon): a noise filter seeded by the stroke's `randomSeed`;
/// - soft (watercolour): a Gaussian blur;
/// - multiply (marker): multiplied onto what is below, as highlighter ink is;
/// - eraser strokes are never drawn.
///
/// The background is a white rectangle, or nothing with `transparent` (markup over other content,
/// as the PNG renderer always does).
public enum DrawingSVG {
    public static func render(_ drawing: Drawing, margin: Double = 5, transparent: Bool = false) -> String {
        let b = drawing.bounds ?? StrokeBounds(minX: 0, minY: 0, maxX: 10, maxY: 10)
        let x = b.minX - margin, y = b.minY - margin, w = b.width + 2 * margin, h = b.height + 2 * margin
        var svg = SVGText()
        svg.line("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(n(w))mm\" height=\"\(n(h))mm\" "
                 + "viewBox=\"\(n(x)) \(n(y)) \(n(w)) \(n(h))\">")
        if !transparent {
            svg.line("<rect x=\"\(n(x))\" y=\"\(n(y))\" width=\"\(n(w))\" height=\"\(n(h))\" fill=\"white\"/>")
        }
        for (index, stroke) in drawing.strokes.enumerated() where !stroke.ink.isEraser {
            draw(stroke, index: index, into: &svg)
        }
        svg.line("</svg>")
        return svg.text
    }

    private static func draw(_ stroke: Stroke, index: Int, into svg: inout SVGText) {
        let pieces = StrokePieces.pieces(of: stroke)
        guard pieces.contains(where: { $0.opacity > 0 }), let local = stroke.path.renderBounds else { return }
        let color = stroke.ink.color
        let fill = "rgb(\(channel(color.red)),\(channel(color.green)),\(channel(color.blue)))"
        let look = stroke.ink.type.look
        let blur = look.softness * meanSize(stroke)
        // Room for the blur and for antialiasing around the outline.
        let pad = 1 + 3 * blur
        let area = StrokeBounds(minX: local.minX - pad, minY: local.minY - pad, maxX: local.maxX + pad, maxY: local.maxY + pad)
        var open = 0
        func group(_ attributes: String) {
            svg.line("<g \(attributes)>")
            open += 1
        }
        if !stroke.transform.isIdentity { group("transform=\"\(matrix(stroke.transform))\"") }
        if let mask = stroke.mask, !mask.erased.isEmpty {
            let id = "m\(index)"
            writeMask(mask, id: id, bounds: local, into: &svg)
            group("mask=\"url(#\(id))\"")
        }
        if look.multiply { group("style=\"mix-blend-mode:multiply\"") }
        if let grain = look.grain {
            let id = "g\(index)"
            writeGrain(id: id, size: grain, floor: look.grainFloor, seed: stroke.randomSeed, into: &svg)
            group("filter=\"url(#\(id))\"")
        }
        if blur > 0 {
            let id = "s\(index)"
            svg.line("<filter id=\"\(id)\" filterUnits=\"userSpaceOnUse\" \(box(area))>"
                     + "<feGaussianBlur stdDeviation=\"\(n(blur))\"/></filter>")
            group("filter=\"url(#\(id))\"")
        }
        if pieces.count == 1 {
            path(pieces[0].rings, fill: fill, opacity: pieces[0].opacity, into: &svg)
        } else {
            let id = "o\(index)"
            svg.line("<mask id=\"\(id)\" maskUnits=\"userSpaceOnUse\" \(box(area))>")
            for piece in pieces {
                let g = channel(piece.opacity)
                path(piece.rings, fill: "rgb(\(g),\(g),\(g))", opacity: 1, into: &svg)
            }
            svg.line("</mask>")
            svg.line("<rect \(box(area)) fill=\"\(fill)\" mask=\"url(#\(id))\"/>")
        }
        for _ in 0..<open { svg.line("</g>") }
    }

    private static func meanSize(_ stroke: Stroke) -> Double {
        let points = stroke.path.controlPoints
        return points.isEmpty ? 0 : points.reduce(0) { $0 + $1.size } / Double(points.count)
    }

    private static func path(_ rings: [[DrawingPoint]], fill: String, opacity: Double, into svg: inout SVGText) {
        var d = ""
        for ring in rings where ring.count > 2 {
            d += "M\(n(ring[0].x)),\(n(ring[0].y))"
            for p in ring.dropFirst() { d += "L\(n(p.x)),\(n(p.y))" }
            d += "Z"
        }
        guard !d.isEmpty else { return }
        let alpha = opacity < 1 ? " fill-opacity=\"\(n(opacity, 4))\"" : ""
        svg.line("<path d=\"\(d)\" fill=\"\(fill)\"\(alpha)/>")
    }

    private static func box(_ b: StrokeBounds) -> String {
        "x=\"\(n(b.minX))\" y=\"\(n(b.minY))\" width=\"\(n(b.width))\" height=\"\(n(b.height))\""
    }

    /// White shows, black hides: the erased regions are drawn black, in the
    /// coordinates their polylines were recorded in.
    private static func writeMask(_ mask: StrokeMask, id: String, bounds: StrokeBounds, into svg: inout SVGText) {
        let pad = 1.0
        svg.line("<mask id=\"\(id)\" maskUnits=\"userSpaceOnUse\" x=\"\(n(bounds.minX - pad))\" y=\"\(n(bounds.minY - pad))\" "
                 + "width=\"\(n(bounds.width + 2 * pad))\" height=\"\(n(bounds.height + 2 * pad))\">")
        svg.line("<rect x=\"\(n(bounds.minX - pad))\" y=\"\(n(bounds.minY - pad))\" width=\"\(n(bounds.width + 2 * pad))\" "
                 + "height=\"\(n(bounds.height + 2 * pad))\" fill=\"white\"/>")
        for region in mask.erased {
            guard let inverse = region.frame.inverted, let first = region.points.first else { continue }
            let place = inverse.isIdentity ? "" : " transform=\"\(matrix(inverse))\""
            if region.points.count == 1 {
                svg.line("<circle cx=\"\(n(first.x))\" cy=\"\(n(first.y))\" r=\"\(n(region.radius))\" fill=\"black\"\(place)/>")
                continue
            }
            var d = "M\(n(first.x)),\(n(first.y))"
            for p in region.points.dropFirst() { d += "L\(n(p.x)),\(n(p.y))" }
            svg.line("<path d=\"\(d)\" fill=\"none\" stroke=\"black\" stroke-width=\"\(n(2 * region.radius))\" "
                     + "stroke-linecap=\"round\" stroke-linejoin=\"round\"\(place)/>")
        }
        svg.line("</mask>")
    }

    /// Grain: fractal noise, seeded per stroke, with features about `size` mm across,
    /// thins the fill's alpha to between about `floor` and 100 %.
    private static func writeGrain(id: String, size: Double, floor: Double, seed: UInt32, into svg: inout SVGText) {
        // The noise is about 0.5 ± 0.2: map 0.3 to `floor` and 0.65 to 1.
        let slope = (1 - floor) / 0.35, offset = 1 - 0.65 * slope
        svg.line("<filter id=\"\(id)\" x=\"0\" y=\"0\" width=\"1\" height=\"1\" filterUnits=\"objectBoundingBox\" "
                 + "primitiveUnits=\"userSpaceOnUse\">")
        svg.line("<feTurbulence type=\"fractalNoise\" baseFrequency=\"\(n(1 / size))\" numOctaves=\"2\" seed=\"\(seed % 100_000)\" result=\"noise\"/>")
        svg.line("<feColorMatrix in=\"noise\" type=\"matrix\" values=\"0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 \(n(slope)) 0 0 0 \(n(offset))\" result=\"grain\"/>")
        svg.line("<feComposite in=\"SourceGraphic\" in2=\"grain\" operator=\"in\"/>")
        svg.line("</filter>")
    }

    private static func matrix(_ t: AffineTransform) -> String {
        "matrix(\(n(t.a, 6)) \(n(t.b, 6)) \(n(t.c, 6)) \(n(t.d, 6)) \(n(t.tx, 6)) \(n(t.ty, 6)))"
    }

    private static func channel(_ c: Double) -> Int { Int((min(max(c, 0), 1) * 255).rounded()) }

    private static func n(_ v: Double, _ decimals: Int = 3) -> String { SVGNumber.format(v, decimals: decimals) }
}

/// SVG text, one element a line.
struct SVGText {
    var text = ""
    mutating func line(_ s: String) {
        text += s
        text += "\n"
    }
}
