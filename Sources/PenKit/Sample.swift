/// Sample properties that can be estimates, as a bit set (UIKit's
/// `UITouch.Properties`): which values of a sample are estimated, and which of
/// those still expect an update.
public struct SampleProperties: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let force = SampleProperties(rawValue: 1 << 0)
    public static let azimuth = SampleProperties(rawValue: 1 << 1)
    public static let altitude = SampleProperties(rawValue: 1 << 2)
    public static let roll = SampleProperties(rawValue: 1 << 3)
    public static let location = SampleProperties(rawValue: 1 << 4)

    /// Names as they appear in JSON, in a fixed order.
    public static let jsonNames: [(SampleProperties, String)] = [
        (.force, "force"), (.azimuth, "azimuth"), (.altitude, "altitude"),
        (.roll, "roll"), (.location, "location"),
    ]

    public static func named(_ name: String) -> SampleProperties? {
        jsonNames.first { $0.1 == name }?.0
    }
}

/// One pen sample at the device's native rate.
///
/// Angles follow UIKit: `azimuth` in radians in [0, 2π) measured in the
/// tablet plane from the +x axis towards +y (down the screen), `altitude` in
/// radians, π/2 when the pen stands perpendicular to the surface.
public struct Sample: Sendable, Hashable {
    /// Kernel timestamp in microseconds.
    public var time: UInt64
    /// Position in mm from the top-left of the sensor.
    public var x: Double
    public var y: Double
    /// Normalized pressure [0, 1]; 0 while hovering.
    public var force: Double
    public var azimuth: Double
    public var altitude: Double
    /// Barrel rotation in radians [0, 2π); 0 for tools without rotation.
    public var roll: Double
    /// Normalized hover distance [0, 1]; 0 in contact or when not reported.
    public var distance: Double
    /// Properties whose values are estimates.
    public var estimated: SampleProperties
    /// The subset of `estimated` for which an update will still come.
    public var expectingUpdates: SampleProperties
    /// Identifies this sample in later `update` messages (UIKit's
    /// `estimationUpdateIndex`); increases monotonically per engine. Nil when
    /// the sample expected no update when it was first published.
    public var updateIndex: UInt64?
    /// The pressure before the tool's feel (thresholds, curve) shaped `force`; nil when no feel shapes it.
    public var rawForce: Double?
    /// The position on the device's configured output rectangle (client units); nil without one.
    public var outputX: Double?
    public var outputY: Double?

    public init(time: UInt64, x: Double, y: Double, force: Double = 0, azimuth: Double = 0,
                altitude: Double = .pi / 2, roll: Double = 0, distance: Double = 0,
                estimated: SampleProperties = [], expectingUpdates: SampleProperties = [],
                updateIndex: UInt64? = nil, rawForce: Double? = nil, outputX: Double? = nil, outputY: Double? = nil) {
        self.rawForce = rawForce
        self.outputX = outputX
        self.outputY = outputY
        self.time = time
        self.x = x
        self.y = y
        self.force = force
        self.azimuth = azimuth
        self.altitude = altitude
        self.roll = roll
        self.distance = distance
        self.estimated = estimated
        self.expectingUpdates = expectingUpdates
        self.updateIndex = updateIndex
    }
}
