/// A stroke's path (PencilKit's `PKStrokePath`): a uniform cubic B-spline
/// whose control points are `StrokePoint`s. The parameter runs from 0 at the
/// first control point to `controlPoints.count - 1` at the last; the curve is
/// clamped so that it starts and ends exactly at the first and last control
/// points (see StrokePath+Interpolation.swift).
public struct StrokePath: Sendable, Hashable {
    public var controlPoints: [StrokePoint]
    /// Kernel time in µs that `timeOffset` counts from.
    public var creationTime: UInt64

    public init(controlPoints: [StrokePoint], creationTime: UInt64) {
        self.controlPoints = controlPoints
        self.creationTime = creationTime
    }
}
