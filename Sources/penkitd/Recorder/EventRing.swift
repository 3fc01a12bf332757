import PenInput

/// The newest evdev events of one tablet, in a buffer reserved once: appending never allocates
/// (the input thread appends every event) and the oldest event gives way when it is full.
/// Its memory is reserved, not touched, until events fill it, so a quiet tablet costs little RSS.
/// A value kept only under `FlightRecorder`'s lock.
struct EventRing: Sendable {
    let capacity: Int
    /// Grows to `capacity` in place (reserved at init), then is written over from `start`.
    private var storage: [EvdevEvent]
    private var start = 0
    var count: Int { storage.count }
    /// Whether an event ever gave way: the ring no longer holds the tablet's first events.
    private(set) var evicted = false

    init(capacity: Int) {
        self.capacity = max(capacity, 1)
        storage = []
        storage.reserveCapacity(self.capacity)
    }

    mutating func append(_ event: EvdevEvent) {
        if storage.count < capacity {
            storage.append(event)
        } else {
            storage[start] = event
            start = (start + 1) % capacity
            evicted = true
        }
    }

    /// The events stamped at or after `time`, oldest first.
    func events(since time: UInt64) -> [EvdevEvent] {
        var result: [EvdevEvent] = []
        result.reserveCapacity(count)
        for i in 0..<count {
            let event = storage[(start + i) % count]
            if event.time >= time { result.append(event) }
        }
        return result
    }

    /// Whether the events stamped at or after `time` are all the tablet sent since penkitd opened it.
    func holdsEverything(since time: UInt64) -> Bool {
        !evicted && (count == 0 || storage[start].time >= time)
    }
}
