/// Draws a `Drawing` as SVG, in mm. Each visible stretch of a stroke is a
/// filled outline whose width follows every point's size (StrokeOutline), split
/// where its opacity changes; the stroke's transform is the group's, its erased
/// regions an SVG mask, its ink decides the look:
///
/// - pen: flat colour at each stretch's opacity;
/// - pencil: the same with a grain texture (a noise filter seeded by the
///   stroke's `randomSeed`), so it reads as graphite;
/// - marker: one flat, semi-transparent fill per stretch at its mean opacity
///   (a marker does not darken where it crosses itself), multiplied onto what is
///   below, as highlighter ink is;
/// - eraser strokes are never drawn.
public enum DrawingSVG {
    /// Parametric step at which the path is sampled for the outline.
    static let outlineStep = 1.0 / 4
    /// Opacity is drawn in steps of 1/16.
    static let opacityLevels = 16.0

    public static func render(_ drawing: Drawing, margin: Double = 5) -> String {
        let b = drawing.bounds ?? StrokeBounds(minX: 0, minY: 0, maxX: 10, maxY: 10)
        let x = b.minX - margin, y = b.minY - margin, w = b.width + 2 * margin, h = b.height + 2 * margin
        var svg = SVGText()
        svg.line("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(n(w))mm\" height=\"\(n(h))mm\" "
                 + "viewBox=\"\(n(x)) \(n(y)) \(n(w)) \(n(h))\">")
        svg.line("<rect x=\"\(n(x))\" y=\"\(n(y))\" width=\"\(n(w))\" height=\"\(n(h))\" fill=\"white\"/>")
        for (index, stroke) in drawing.strokes.enumerated() where !stroke.ink.isEraser {
            draw(stroke, index: index, into: &svg)
        }
        svg.line("</svg>")
        return svg.text
    }

    private static func draw(_ stroke: Stroke, index: Int, into svg: inout SVGText) {
        let ranges = stroke.maskedPathRanges
        guard !ranges.isEmpty else { return }
        let color = stroke.ink.color
        let fill = "rgb(\(channel(color.red)),\(channel(color.green)),\(channel(color.blue)))"
        var open = 0
        if !stroke.transform.isIdentity {
            svg.line("<g transform=\"\(matrix(stroke.transform))\">")
            open += 1
        }
        if let mask = stroke.mask, !mask.erased.isEmpty, let local = stroke.path.renderBounds {
            let id = "m\(index)"
            writeMask(mask, id: id, bounds: local, into: &svg)
            svg.line("<g mask=\"url(#\(id))\">")
            open += 1
        }
        switch stroke.ink.type {
        case .pencil:
            let id = "g\(index)"
            writeGrain(id: id, seed: stroke.randomSeed, into: &svg)
            svg.line("<g filter=\"url(#\(id))\">")
            open += 1
            fallthrough
        case .pen:
            for range in ranges { drawByOpacity(stroke, range: range, fill: fill, into: &svg) }
        case .marker:
            svg.line("<g style=\"mix-blend-mode:multiply\">")
            open += 1
            for range in ranges { drawFlat(stroke, range: range, fill: fill, into: &svg) }
        case .eraser:
            break
        }
        for _ in 0..<open { svg.line("</g>") }
    }

    /// The stretch in pieces of one opacity level each. A piece owns the
    /// segments from its first point to its last and the discs at its points,
    /// except the disc where the next piece starts, so pieces do not overlap
    /// (a sliver inside a bend at a change of level is the price).
    private static func drawByOpacity(_ stroke: Stroke, range: ClosedRange<Double>, fill: String,
                                      into svg: inout SVGText) {
        let points = stroke.path.interpolatedPoints(in: range, by: .parametricStep(outlineStep))
        guard !points.isEmpty else { return }
        let outline = StrokeOutline(points)
        let last = points.count - 1
        func segmentLevel(_ i: Int) -> Double {
            level(i < last ? (points[i].opacity + points[i + 1].opacity) / 2 : points[i].opacity)
        }
        var start = 0
        var current = segmentLevel(0)
        for i in 1...max(last, 1) {
            let next = i < last ? segmentLevel(i) : -1
            guard next != current else { continue }
            let end = min(i, last)
            let discs = start..<(end == last ? last + 1 : end)
            path(outline.pathData(segments: start..<end, discs: discs), fill: fill, opacity: current, into: &svg)
            start = end
            current = next
        }
    }

    private static func drawFlat(_ stroke: Stroke, range: ClosedRange<Double>, fill: String, into svg: inout SVGText) {
        let points = stroke.path.interpolatedPoints(in: range, by: .parametricStep(outlineStep))
        guard !points.isEmpty else { return }
        let mean = points.reduce(0) { $0 + $1.opacity } / Double(points.count)
        let outline = StrokeOutline(points)
        path(outline.pathData(segments: 0..<(points.count - 1), discs: 0..<points.count), fill: fill,
             opacity: level(mean), into: &svg)
    }

    private static func level(_ opacity: Double) -> Double {
        (min(max(opacity, 0), 1) * opacityLevels).rounded() / opacityLevels
    }

    private static func path(_ d: String, fill: String, opacity: Double, into svg: inout SVGText) {
        guard opacity > 0, !d.isEmpty else { return }
        svg.line("<path d=\"\(d)\" fill=\"\(fill)\" fill-opacity=\"\(n(opacity, 4))\"/>")
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

    /// Graphite grain: fractal noise, seeded per stroke, thins the fill's alpha
    /// to between about 35 % and 100 % in a pattern about a fifth of a millimetre fine.
    private static func writeGrain(id: String, seed: UInt32, into svg: inout SVGText) {
        svg.line("<filter id=\"\(id)\" x=\"0\" y=\"0\" width=\"1\" height=\"1\" filterUnits=\"objectBoundingBox\" "
                 + "primitiveUnits=\"userSpaceOnUse\">")
        svg.line("<feTurbulence type=\"fractalNoise\" baseFrequency=\"5\" numOctaves=\"2\" seed=\"\(seed % 100_000)\" result=\"noise\"/>")
        svg.line("<feColorMatrix in=\"noise\" type=\"matrix\" values=\"0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 2.4 0 0 0 -0.45\" result=\"grain\"/>")
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
