/// A point in mm.
public struct DrawingPoint: Sendable, Hashable {
    public var x: Double
    public var y: Double

    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }
}

/// Part of the plane a pixel eraser swept: every point within `radius` of the
/// polyline `points`. The polyline is in the coordinates the eraser moved in;
/// `frame` maps the stroke's own coordinates (those of its path) into them, so
/// the region stays where it was cut however the stroke is transformed later.
public struct ErasedRegion: Sendable, Hashable {
    public var points: [DrawingPoint]
    /// Half the eraser's width, mm.
    public var radius: Double
    /// From the stroke's path coordinates to those of `points`.
    public var frame: AffineTransform

    public init(points: [DrawingPoint], radius: Double, frame: AffineTransform = .identity) {
        self.points = points
        self.radius = radius
        self.frame = frame
    }

    /// Whether a point of the stroke's path coordinates lies in the region.
    public func contains(pathX x: Double, y: Double) -> Bool {
        let p = frame.apply(x: x, y: y)
        return Geometry.distance(fromX: p.x, y: p.y, toPolyline: points) <= radius
    }
}

/// What hides parts of a stroke (PencilKit's `PKStroke.mask`). A stroke is
/// visible only where its path is both inside `clip` (a range of the path's
/// parameter, set on the pieces of a split stroke) and outside every erased
/// region. The path itself is never edited; `Stroke.maskedPathRanges` gives the
/// parametric ranges still visible.
public struct StrokeMask: Sendable, Hashable {
    public var erased: [ErasedRegion]
    /// The part of the path this stroke keeps, nil for all of it.
    public var clip: ClosedRange<Double>?

    public init(erased: [ErasedRegion] = [], clip: ClosedRange<Double>? = nil) {
        self.erased = erased
        self.clip = clip
    }

    public var isEmpty: Bool { erased.isEmpty && clip == nil }

    /// Whether the path point at these path coordinates is hidden by an erased region.
    public func erases(pathX x: Double, y: Double) -> Bool {
        erased.contains { $0.contains(pathX: x, y: y) }
    }
}
