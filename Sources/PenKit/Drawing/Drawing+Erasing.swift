/// Erasing, by the eraser end of a pen or from code.
extension Drawing {
    /// Applies one finished stroke: an eraser stroke (eraser ink or the eraser
    /// tool) erases along its path with `eraser`; any other stroke is appended.
    @discardableResult
    public mutating func apply(_ stroke: Stroke, eraser: EraserTool) -> EraseResult? {
        guard stroke.ink.isEraser || stroke.tool.type == .eraser else {
            append(stroke)
            return nil
        }
        var result = EraseResult()
        for part in stroke.visiblePoints(by: .parametricStep(Self.eraserPathStep)) {
            let points = part.map { DrawingPoint(x: $0.x, y: $0.y) }
            result.add(erase(along: points, with: eraser))
        }
        return result
    }

    /// Steps per control point at which an eraser stroke's path becomes the
    /// polyline it erases along (and that a pixel eraser's mask keeps).
    static let eraserPathStep = 1.0 / 8

    /// Erases along a polyline in drawing coordinates. A stroke is touched where
    /// its rendered outline (the disc of its size at each point of its visible
    /// path) comes within half the eraser's width of the polyline.
    @discardableResult
    public mutating func erase(along points: [DrawingPoint], with eraser: EraserTool) -> EraseResult {
        var result = EraseResult()
        guard !points.isEmpty else { return result }
        let radius = eraser.width / 2
        let reach = PolylineReach(points, radius: radius)
        var kept: [Stroke] = []
        kept.reserveCapacity(strokes.count)
        for stroke in strokes {
            guard reach.touches(stroke) else {
                kept.append(stroke)
                continue
            }
            switch eraser.mode {
            case .object:
                result.removed += 1
            case .pixel:
                let region = ErasedRegion(points: points, radius: radius, frame: stroke.transform)
                let pieces = stroke.cut(by: region)
                switch pieces.count {
                case 0: result.removed += 1
                case 1: result.cut += 1
                default:
                    result.split += 1
                    result.pieces += pieces.count
                }
                kept.append(contentsOf: pieces)
            }
        }
        strokes = kept
        return result
    }
}

/// The area within `radius` of a polyline, with a bounding box to skip far strokes quickly.
struct PolylineReach {
    let points: [DrawingPoint]
    let radius: Double
    let box: StrokeBounds

    init(_ points: [DrawingPoint], radius: Double) {
        self.points = points
        self.radius = radius
        var b = StrokeBounds(minX: .infinity, minY: .infinity, maxX: -.infinity, maxY: -.infinity)
        for p in points {
            b.minX = min(b.minX, p.x)
            b.minY = min(b.minY, p.y)
            b.maxX = max(b.maxX, p.x)
            b.maxY = max(b.maxY, p.y)
        }
        box = b
    }

    /// Whether the disc of radius `r` at (x, y) meets the area.
    func meets(x: Double, y: Double, r: Double) -> Bool {
        let margin = radius + r
        guard x >= box.minX - margin, x <= box.maxX + margin, y >= box.minY - margin, y <= box.maxY + margin else {
            return false
        }
        return Geometry.distance(fromX: x, y: y, toPolyline: points) <= margin
    }

    /// Whether the stroke's visible outline meets the area, sampled every
    /// `Stroke.visibilityStep` along its visible ranges.
    func touches(_ stroke: Stroke) -> Bool {
        guard let bounds = stroke.renderBounds,
              bounds.maxX >= box.minX - radius, bounds.minX <= box.maxX + radius,
              bounds.maxY >= box.minY - radius, bounds.minY <= box.maxY + radius else { return false }
        for part in stroke.visiblePoints(by: .parametricStep(Stroke.visibilityStep)) {
            for p in part where meets(x: p.x, y: p.y, r: p.size / 2) { return true }
        }
        return false
    }
}
