/// What a stroke paints, in its path's coordinates, shared by the SVG and PNG
/// renderers: each visible range sampled every `outlineSpacing` mm along the
/// smooth path (not at the tablet's reports, whose spacing would show in the
/// edges), cut into pieces of one opacity level each.
///
/// Pieces are painted in order and each covers the start of the next, which
/// paints over it: the renderer paints them as opaque grey levels into a mask
/// (painting, not blending, so an overlap never doubles opacity), then fills the
/// mask with the ink's colour. Along a stroke whose opacity rises, what shows
/// rises with it, one level at a time, with no bead where two pieces meet.
public struct OutlinePiece: Sendable {
    /// Closed polygons in path coordinates, all wound the same way: fill their union (nonzero rule).
    public var rings: [[DrawingPoint]]
    /// The piece's opacity, a multiple of 1 / `StrokePieces.opacityLevels`.
    public var opacity: Double
}

public enum StrokePieces {
    /// Arc length between the points the outline is built from, mm.
    public static let outlineSpacing = 0.25
    /// Opacity is painted in steps of 1/32: fine enough that a step is about the noise of an 8-bit channel.
    public static let opacityLevels = 32.0

    /// The stroke's pieces in painting order. A marker's stretch is one piece at its mean
    /// opacity: highlighter ink does not darken where it slows down.
    public static func pieces(of stroke: Stroke) -> [OutlinePiece] {
        var result: [OutlinePiece] = []
        for range in stroke.maskedPathRanges {
            let points = outlinePoints(stroke.path, in: range)
            guard !points.isEmpty else { continue }
            let outline = StrokeOutline(points, nibAngle: stroke.ink.type.nibAngle)
            let kept = outline.points
            let last = kept.count - 1
            let (ribbon, folds) = outline.ribbon(segments: 0..<last)
            let nibs = [0] + folds + (last > 0 ? [last] : [])
            if stroke.ink.type == .marker || last == 0 {
                let mean = kept.reduce(0) { $0 + $1.opacity } / Double(kept.count)
                result.append(OutlinePiece(rings: ribbon + nibs.map(outline.nib(at:)), opacity: level(mean)))
                continue
            }
            // Nibs go under the ribbon, each at its point's level: painted over it, a nib
            // would cover the ribbon around it with one level (a pale or dark disc where the
            // pen lifts or turns sharply); under it, only the part outside the ribbon shows.
            for i in nibs { result.append(OutlinePiece(rings: [outline.nib(at: i)], opacity: level(kept[i].opacity))) }
            func segmentLevel(_ i: Int) -> Double { level((kept[i].opacity + kept[i + 1].opacity) / 2) }
            var start = 0
            var current = segmentLevel(0)
            for i in 1...last {
                let next = i < last ? segmentLevel(i) : -1
                guard next != current else { continue }
                // This piece runs one segment past its end (into the next piece, which paints over it).
                let end = min(i + 1, last)
                result.append(OutlinePiece(rings: outline.ribbon(segments: start..<end).rings, opacity: current))
                start = i
                current = next
            }
        }
        result.removeAll { $0.rings.isEmpty }
        // One level throughout (a pen, or a pencil at one force): one piece, one shape to fill.
        if let first = result.first, result.allSatisfy({ $0.opacity == first.opacity }) {
            return [OutlinePiece(rings: result.flatMap(\.rings), opacity: first.opacity)]
        }
        return result
    }

    /// Points of the path over `range` for its outline: every `outlineSpacing` mm and at
    /// every control point's parameter, then between any two whose midpoint strays more than
    /// `flatness` mm from the chord joining them (in location or in half-width), halved until it
    /// does not: a slow stroke's tight turns and a sharp swell in width are followed, not cut.
    static func outlinePoints(_ path: StrokePath, in range: ClosedRange<Double>) -> [StrokePoint] {
        var parameters = path.interpolatedParameters(in: range, by: .distance(outlineSpacing))
        let first = Int(range.lowerBound.rounded(.up)), last = Int(range.upperBound.rounded(.down))
        if first <= last { parameters += (first...last).map(Double.init) }
        parameters.sort()
        var points: [StrokePoint] = []
        var previous: (u: Double, p: StrokePoint)? = nil
        for u in parameters where previous.map({ u - $0.u > 1e-9 }) ?? true {
            guard let p = path.interpolatedPoint(at: u) else { continue }
            if let (u0, p0) = previous { subdivide(path, u0, p0, u, p, depth: 0, into: &points) }
            points.append(p)
            previous = (u, p)
        }
        return points
    }

    static let flatness = 0.01

    /// Appends the points strictly between (u0, p0) and (u1, p1) that flattening needs.
    private static func subdivide(_ path: StrokePath, _ u0: Double, _ p0: StrokePoint, _ u1: Double, _ p1: StrokePoint,
                                  depth: Int, into points: inout [StrokePoint]) {
        guard depth < 8, let m = path.interpolatedPoint(at: (u0 + u1) / 2) else { return }
        let dx = p1.x - p0.x, dy = p1.y - p0.y, length = (dx * dx + dy * dy).squareRoot()
        let stray = length > 1e-9 ? abs((m.x - p0.x) * dy - (m.y - p0.y) * dx) / length
                                  : ((m.x - p0.x) * (m.x - p0.x) + (m.y - p0.y) * (m.y - p0.y)).squareRoot()
        let swell = max(abs(m.size - (p0.size + p1.size) / 2), abs(m.height - (p0.height + p1.height) / 2)) / 2
        guard max(stray, swell) > flatness else { return }
        subdivide(path, u0, p0, (u0 + u1) / 2, m, depth: depth + 1, into: &points)
        points.append(m)
        subdivide(path, (u0 + u1) / 2, m, u1, p1, depth: depth + 1, into: &points)
    }

    static func level(_ opacity: Double) -> Double {
        (min(max(opacity, 0), 1) * opacityLevels).rounded() / opacityLevels
    }
}
