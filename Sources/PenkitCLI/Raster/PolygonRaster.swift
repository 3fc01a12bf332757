/// Anti-aliased coverage of closed polygons under the nonzero fill rule (SVG's
/// default, which StrokeOutline's rings are wound for): each pixel row is cut at
/// `subscanlines` heights; along each, the spans where the winding number is not
/// zero are added with their exact horizontal extent, so a pixel's coverage is
/// the fraction of it inside, to 1/`subscanlines` vertically.
enum PolygonRaster {
    static let subscanlines = 5

    private struct Edge {
        var top: Double, bottom: Double
        var xAtTop: Double, slope: Double
        var winding: Int
    }

    /// Coverage of `rings` (pixel coordinates) in the pixels of their bounding box, clipped to
    /// `clip` (the image: 0..<width, 0..<height).
    static func coverage(of rings: [[(x: Double, y: Double)]], clipWidth: Int, clipHeight: Int) -> CoverageLayer {
        var edges: [Edge] = []
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
        for ring in rings where ring.count > 2 {
            for i in ring.indices {
                let p = ring[i], q = ring[(i + 1) % ring.count]
                minX = min(minX, p.x); maxX = max(maxX, p.x); minY = min(minY, p.y); maxY = max(maxY, p.y)
                guard p.y != q.y else { continue }
                let (a, b, w) = p.y < q.y ? (p, q, 1) : (q, p, -1)
                edges.append(Edge(top: a.y, bottom: b.y, xAtTop: a.x, slope: (b.x - a.x) / (b.y - a.y), winding: w))
            }
        }
        guard !edges.isEmpty else { return CoverageLayer(originX: 0, originY: 0, width: 0, height: 0) }
        let x0 = max(Int(minX.rounded(.down)), 0), y0 = max(Int(minY.rounded(.down)), 0)
        let x1 = min(Int(maxX.rounded(.up)), clipWidth), y1 = min(Int(maxY.rounded(.up)), clipHeight)
        var layer = CoverageLayer(originX: x0, originY: y0, width: x1 - x0, height: y1 - y0)
        guard layer.width > 0, layer.height > 0 else { return layer }
        edges.sort { $0.top < $1.top }
        var next = 0
        var active: [Edge] = []
        var crossings: [(x: Double, winding: Int)] = []
        let weight = Float(1) / Float(subscanlines)
        for row in y0..<y1 {
            for k in 0..<subscanlines {
                let y = Double(row) + (Double(k) + 0.5) / Double(subscanlines)
                while next < edges.count, edges[next].top <= y {
                    active.append(edges[next])
                    next += 1
                }
                active.removeAll { $0.bottom <= y }
                crossings.removeAll(keepingCapacity: true)
                for e in active where e.top <= y { crossings.append((e.xAtTop + (y - e.top) * e.slope, e.winding)) }
                crossings.sort { $0.x < $1.x }
                var winding = 0
                var start = 0.0
                for c in crossings {
                    let before = winding
                    winding += c.winding
                    if before == 0, winding != 0 { start = c.x }
                    if before != 0, winding == 0 { addSpan(from: start, to: c.x, row: row - y0, weight: weight, into: &layer) }
                }
            }
        }
        return layer
    }

    private static func addSpan(from a: Double, to b: Double, row: Int, weight: Float, into layer: inout CoverageLayer) {
        let left = max(a - Double(layer.originX), 0), right = min(b - Double(layer.originX), Double(layer.width))
        guard right > left else { return }
        let first = Int(left), last = Int(right)
        let base = row * layer.width
        if first == last {
            layer.values[base + first] += Float(right - left) * weight
            return
        }
        layer.values[base + first] += Float(Double(first + 1) - left) * weight
        if first + 1 < last { for x in (first + 1)..<last { layer.values[base + x] += weight } }
        if last < layer.width { layer.values[base + last] += Float(right - Double(last)) * weight }
    }
}
