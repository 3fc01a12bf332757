/// One pen event as the app's own toolkit gave it for its own surface: the compositor's view of
/// the same kernel report penkit read. `SurfacePairing` pairs these with penkit's frames.
public struct AppPenEvent: Sendable, Hashable {
    public enum Proximity: String, Sendable, Hashable {
        /// The pen came over this surface (tablet-v2 `proximity_in`, GTK's proximity/enter, `pointerover`).
        case entering = "in"
        /// Motion over this surface, hovering or in contact.
        case moving = "move"
        /// The pen left this surface: out of range, or over another window.
        case leaving = "out"
    }

    /// The toolkit's time in milliseconds on its own clock: tablet-v2 `frame` time (libinput's
    /// event time, floored to ms), GTK's and Qt's event time, or a PointerEvent's `timeStamp`.
    /// Its origin is learned, so any clock that runs at the kernel's rate will do.
    public var time: Double
    /// Position in the surface's own units (surface-local logical pixels, CSS px, …).
    public var x: Double
    public var y: Double
    public var proximity: Proximity
    /// The app's own name for the device the event came from (a GdkDevice's name, a QPointingDevice's
    /// id, a PointerEvent's `pointerId`), "" when it has one pen; which penkit device it is gets learned.
    public var source: String

    public init(time: Double, x: Double, y: Double, proximity: Proximity, source: String = "") {
        self.time = time
        self.x = x
        self.y = y
        self.proximity = proximity
        self.source = source
    }
}
