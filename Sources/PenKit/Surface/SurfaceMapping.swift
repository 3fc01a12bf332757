/// penkit's samples and strokes carried from tablet mm into surface units by a map: positions by
/// the affine map, azimuths by its linear part (so a flip mirrors them), sizes and distances by
/// its mean scale.
enum SurfaceMapping {
    static func sample(_ s: Sample, _ map: AffineTransform) -> Sample {
        var out = s
        let p = map.apply(x: s.x, y: s.y)
        out.x = p.x
        out.y = p.y
        out.azimuth = azimuth(s.azimuth, map)
        return out
    }

    static func frame(_ f: Frame, _ map: AffineTransform) -> Frame {
        var out = f
        out.sample = sample(f.sample, map)
        out.predicted = f.predicted.map { sample($0, map) }
        out.expectedError = f.expectedError.map { $0 * map.widthScale }
        return out
    }

    /// The direction (cos, sin) through the linear part, as an angle in [0, 2π).
    static func azimuth(_ angle: Double, _ map: AffineTransform) -> Double {
        let cx = PenMath.cos(angle), sy = PenMath.sin(angle)
        let dx = map.a * cx + map.c * sy, dy = map.b * cx + map.d * sy
        var turned = PenMath.atan2(dy, dx)
        if turned < 0 { turned += 2 * .pi }
        return turned
    }

    /// A stroke's point through `map`: its position, its azimuth, and its nib's size.
    private static func placed<Point: PlacedStrokePoint>(_ point: Point, _ map: AffineTransform) -> Point {
        var p = point
        let q = map.apply(x: point.x, y: point.y)
        p.x = q.x
        p.y = q.y
        p.azimuth = azimuth(point.azimuth, map)
        p.size = point.size * map.widthScale
        return p
    }

    /// Each point and control point with the map in force at its own time; the stroke's own
    /// transform is applied first and becomes the identity.
    static func stroke(_ stroke: Stroke, mapAt: (UInt64) -> AffineTransform) -> Stroke {
        var out = stroke
        let own = stroke.transform
        out.transform = .identity
        out.points = stroke.points.map { placed($0, own.concatenating(mapAt($0.time))) }
        let creation = stroke.path.creationTime
        out.path.controlPoints = stroke.path.controlPoints.map { point in
            let time = creation &+ UInt64(max(point.timeOffset, 0) * 1_000_000)
            let map = own.concatenating(mapAt(time))
            var p = placed(point, map)
            p.height = point.height * map.widthScale
            return p
        }
        return out
    }
}

/// What a map moves in both kinds of stroke point (the measured samples and the fitted path's
/// control points), so one function maps both.
protocol PlacedStrokePoint {
    var x: Double { get set }
    var y: Double { get set }
    var azimuth: Double { get set }
    var size: Double { get set }
}

extension StrokeSample: PlacedStrokePoint {}
extension StrokePoint: PlacedStrokePoint {}
