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
    /// The nib's width in mm: its extent along the ink's nib axis (`Ink.nibAngle`), PencilKit's
    /// `size.width`. A round nib is as wide as it is high, so this is its diameter.
    public var size: Double
    /// The nib's height in mm, across its axis (PencilKit's `size.height`): a chisel is
    /// wide and thin, so a stroke drawn across its axis is `size` wide and one drawn along
    /// it `height` wide.
    public var height: Double
    public var opacity: Double
    public var azimuth: Double
    public var force: Double
    public var altitude: Double
    /// The pen's barrel roll, radians (PencilKit's `rollAngle`; 0 without a rotation axis). A
    /// shaped nib's axis turns with it: it lies at the ink's `nibAngle` plus `roll`.
    public var roll: Double

    /// `height` defaults to `size`: a round nib.
    public init(x: Double, y: Double, timeOffset: Double, size: Double, height: Double? = nil, opacity: Double,
                azimuth: Double, force: Double, altitude: Double, roll: Double = 0) {
        self.x = x
        self.y = y
        self.timeOffset = timeOffset
        self.size = size
        self.height = height ?? size
        self.opacity = opacity
        self.azimuth = azimuth
        self.force = force
        self.altitude = altitude
        self.roll = roll
    }

    /// PencilKit's 2-D `size`: (`size`, `height`).
    public var nibSize: NibSize {
        get { NibSize(width: size, height: height) }
        set {
            size = newValue.width
            height = newValue.height
        }
    }
}

/// A nib's width and height in mm (PencilKit's `PKStrokePoint.size`, a `CGSize`).
public struct NibSize: Sendable, Hashable {
    public var width: Double
    public var height: Double

    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }
}
