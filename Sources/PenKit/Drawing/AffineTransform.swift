/// A 2-D affine transform, laid out as Core Graphics' `CGAffineTransform`
/// (PencilKit strokes carry one): a point (x, y) maps to
/// (a·x + c·y + tx, b·x + d·y + ty).
public struct AffineTransform: Sendable, Hashable {
    public var a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double

    public init(a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double) {
        self.a = a
        self.b = b
        self.c = c
        self.d = d
        self.tx = tx
        self.ty = ty
    }

    public static let identity = AffineTransform(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0)

    public static func translation(x: Double, y: Double) -> AffineTransform {
        AffineTransform(a: 1, b: 0, c: 0, d: 1, tx: x, ty: y)
    }

    public static func scale(x: Double, y: Double) -> AffineTransform {
        AffineTransform(a: x, b: 0, c: 0, d: y, tx: 0, ty: 0)
    }

    /// Rotation by `angle` radians (counter-clockwise in a y-up frame; on a
    /// tablet, whose y grows downwards, it turns clockwise).
    public static func rotation(_ angle: Double) -> AffineTransform {
        let cosA = PenMath.cos(angle), sinA = PenMath.sin(angle)
        return AffineTransform(a: cosA, b: sinA, c: -sinA, d: cosA, tx: 0, ty: 0)
    }

    public var isIdentity: Bool { self == .identity }

    public func apply(x: Double, y: Double) -> (x: Double, y: Double) {
        (a * x + c * y + tx, b * x + d * y + ty)
    }

    /// This transform, then `next`: `t.concatenating(n).apply(p) == n.apply(t.apply(p))`.
    public func concatenating(_ next: AffineTransform) -> AffineTransform {
        AffineTransform(
            a: a * next.a + b * next.c, b: a * next.b + b * next.d,
            c: c * next.a + d * next.c, d: c * next.b + d * next.d,
            tx: tx * next.a + ty * next.c + next.tx, ty: tx * next.b + ty * next.d + next.ty)
    }

    public var determinant: Double { a * d - b * c }

    /// nil when the transform squashes the plane onto a line or a point.
    public var inverted: AffineTransform? {
        let det = determinant
        guard det != 0, det.isFinite else { return nil }
        return AffineTransform(a: d / det, b: -b / det, c: -c / det, d: a / det,
                               tx: (c * ty - d * tx) / det, ty: (b * tx - a * ty) / det)
    }

    /// How much lengths grow on average: √|det|. Exact for rotations, translations
    /// and uniform scales, which is how sizes (widths) follow a transform.
    public var widthScale: Double { abs(determinant).squareRoot() }

    /// The angle the transform turns the x axis through, for azimuths.
    public var rotationAngle: Double { PenMath.atan2(b, a) }
}
