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
            let points = stroke.path.interpolatedPoints(in: range, by: .distance(outlineSpacing))
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

    static func level(_ opacity: Double) -> Double {
        (min(max(opacity, 0), 1) * opacityLevels).rounded() / opacityLevels
    }
}
