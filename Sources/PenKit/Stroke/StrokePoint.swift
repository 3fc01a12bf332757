/// A point of a stroke's path (PencilKit's `PKStrokePoint`): appearance
/// (location, size, azimuth, opacity) and input (force, altitude, time offset).
/// B-spline control points and interpolated points are both of this type, so
/// every property blends along the curve.
public struct StrokePoint: Sendable, Hashable {
    /// Location in mm.
    public var x: Double
    public var y: Double
    /// Seconds since the path's creation time.
    public var timeOffset: Double
    /// Drawn width in mm.
    public var size: Double
    public var opacity: Double
    public var azimuth: Double
    public var force: Double
    public var altitude: Double

    public init(x: Double, y: Double, timeOffset: Double, size: Double, opacity: Double,
                azimuth: Double, force: Double, altitude: Double) {
        self.x = x
        self.y = y
        self.timeOffset = timeOffset
        self.size = size
        self.opacity = opacity
        self.azimuth = azimuth
        self.force = force
        self.altitude = altitude
    }
}
