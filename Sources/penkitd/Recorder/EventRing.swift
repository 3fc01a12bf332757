import PenInput

/// The newest evdev events of one tablet (`StampedRing`): appending allocates nothing once the
/// ring has held a window's worth (the input thread appends every event), the oldest event gives
/// way when it is full or older than the window, and a quiet tablet costs little RSS.
/// A value kept only under `FlightRecorder`'s lock.
struct EventRing: Sendable {
    private var ring: StampedRing<EvdevEvent>
    var capacity: Int { ring.capacity }
    var count: Int { ring.count }
    /// Whether an event ever gave way: the ring no longer holds the tablet's first events.
    var evicted: Bool { ring.evicted }

    /// `span`: µs, the longest window asked for.
    init(capacity: Int, span: UInt64 = .max) {
        ring = StampedRing(capacity: capacity, span: span)
    }

    mutating func append(_ event: EvdevEvent) { ring.append(event) }

    /// The events stamped at or after `time`, oldest first.
    func events(since time: UInt64) -> [EvdevEvent] { ring.elements(since: time) }

    /// Whether the events stamped at or after `time` are all the tablet sent since penkitd opened it.
    func holdsEverything(since time: UInt64) -> Bool { ring.holdsEverything(since: time) }
}
