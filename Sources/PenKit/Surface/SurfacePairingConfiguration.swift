/// The constants of `SurfacePairing`; the JavaScript and Python clients use the same defaults
/// (docs/apps.md, Tests/Fixtures/surface-pairing/vectors.json).
public struct SurfacePairingConfiguration: Sendable, Hashable {
    /// Pairs kept per device for the fit, the newest: the more and the wider spread, the better the
    /// map far from the pen. A moved window starts them afresh.
    public var pairWindow = 256
    /// Pairs, spread in both directions, before a map counts as ready.
    public var minimumPairs = 8
    /// The pairs' spread (mm) in their thinnest direction before a map counts as ready.
    public var minimumSpread = 0.2
    /// The accuracy (surface units) a map must reach, as three standard errors `reach` mm away from
    /// the pairs' centre across their thinnest direction, before deliveries start: there penkit's
    /// next samples and predictions fall. Apps whose positions are coarser (whole pixels) get
    /// their own rounding as the bound.
    public var accuracy = 0.01
    public var reach = 5.0
    /// How far (mm on the tablet) the app's position may lie from the mapped one and still be the
    /// same report: far above wl_fixed's 1/256 and float rounding, far below a report's travel.
    public var tolerance = 0.05
    /// Delivery delay the time window allows beyond the toolkit's 1 ms flooring (ms).
    public var timeSlack = 1.0
    /// App events after a proximity-in the offset search waits for before it decides.
    public var searchEvents = 6
    /// App events kept waiting for the search at most (older ones are given up).
    public var searchLimit = 48
    /// The share of the waiting events a trial of the search may find no frame for: an X server
    /// stamps an event when it reads the report, now and then many ms late under load.
    public var searchMisses = 0.25
    /// Frames remembered per device, to pair app events that come after them (at 200 Hz, 2.5 s).
    public var frameMemory = 512
    /// App events in a row that find no frame before the clock offset is searched for again.
    public var missesBeforeSearch = 8
    /// How far (ms) penkit's frames may run ahead of the app's own newest event and still be
    /// delivered at once: penkit reads the tablet before the compositor does, but a pen that left
    /// this window shows first in the app's events; later frames wait for the app's events.
    public var lead = 50.0
    /// Recent pairs whose smallest lag is the clock offset (so it can follow a drift).
    public var lagMemory = 64
    /// Delivery only (not in the shared vectors): how long (ms of penkit's clock) an `ended` waits
    /// for the app's own pen to catch up with its stroke before it goes out as it is.
    public var endedHold = 2000.0
    /// `update`s kept at most while they wait for their stroke's first frame to be delivered here
    /// (before the map is ready, or while the app's pen runs behind penkit's feed); the oldest go.
    public var updateMemory = 4096

    public init() {}
}
