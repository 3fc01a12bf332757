/// What `SurfacePairing` hands the app: penkit's messages in the app's surface coordinates,
/// only for the pen over this surface, and word when its map changes.
public enum SurfaceDelivery: Sendable, Hashable {
    /// A frame: `sample` and `predicted` in surface units, `expectedError` scaled to them.
    case frame(Frame)
    case began(StrokeBegan)
    /// Late values for a delivered sample (pressure, tilt), in surface units.
    case update(SampleUpdate)
    case ended(StrokeEnded)
    /// A stroke that began on this surface, its points and path in surface units.
    case stroke(FinalizedStroke)
    /// The map of a device was fitted, refitted (window moved) or lost.
    case map(SurfaceMapEstimate)
}

/// What is known of one device's map from tablet mm to surface units.
public struct SurfaceMapEstimate: Sendable, Hashable {
    public enum Change: String, Sendable, Hashable {
        /// Enough pairs with enough spread fit: deliveries start.
        case ready
        /// The app's positions jumped by one offset: the window moved; the offset is refitted.
        case moved
        /// The app's positions stopped fitting and are not a move: deliveries stop until refitted.
        case lost
    }

    public var device: UInt32
    public var transform: AffineTransform
    public var ready: Bool
    public var change: Change
    /// Pairs the map stands on.
    public var pairs: Int
    /// Their RMS residual, in surface units.
    public var rms: Double
    /// App time − penkit time (ms), the smallest seen lately.
    public var clockOffset: Double
    /// App events seen when this was decided (for "ready after N events").
    public var appEvents: Int

    public init(device: UInt32, transform: AffineTransform, ready: Bool, change: Change, pairs: Int,
                rms: Double, clockOffset: Double, appEvents: Int) {
        self.device = device
        self.transform = transform
        self.ready = ready
        self.change = change
        self.pairs = pairs
        self.rms = rms
        self.clockOffset = clockOffset
        self.appEvents = appEvents
    }
}
