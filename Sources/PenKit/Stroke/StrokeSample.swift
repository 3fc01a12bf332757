/// A measured sample of a finalized stroke with its appearance: the `points`
/// entries of a `stroke` message.
public struct StrokeSample: Sendable, Hashable {
    public var time: UInt64
    public var x: Double
    public var y: Double
    public var force: Double
    public var azimuth: Double
    public var altitude: Double
    public var roll: Double
    public var size: Double
    public var opacity: Double
    /// Properties that stayed estimates (no real value ever arrived).
    public var estimated: SampleProperties

    public init(time: UInt64, x: Double, y: Double, force: Double, azimuth: Double, altitude: Double,
                roll: Double, size: Double, opacity: Double, estimated: SampleProperties) {
        self.time = time
        self.x = x
        self.y = y
        self.force = force
        self.azimuth = azimuth
        self.altitude = altitude
        self.roll = roll
        self.size = size
        self.opacity = opacity
        self.estimated = estimated
    }
}
