import PenInput

/// The newest evdev events of one tablet, in a buffer allocated once: appending never allocates
/// (the input thread appends every event) and the oldest event gives way when it is full.
/// Its memory is reserved, not touched, until events fill it, so a quiet tablet costs little RSS.
/// Touched only under `FlightRecorder`'s lock, hence unchecked.
final class EventRing: @unchecked Sendable {
    let capacity: Int
    private let storage: UnsafeMutablePointer<EvdevEvent>
    private var start = 0
    private(set) var count = 0
    /// Whether an event ever gave way: the ring no longer holds the tablet's first events.
    private(set) var evicted = false

    init(capacity: Int) {
        self.capacity = max(capacity, 1)
        storage = .allocate(capacity: self.capacity)
    }

    deinit { storage.deallocate() }

    func append(_ event: EvdevEvent) {
        if count < capacity {
            (storage + (start + count) % capacity).initialize(to: event)
            count += 1
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
            let event = storage[(start + i) % capacity]
            if event.time >= time { result.append(event) }
        }
        return result
    }

    /// Whether the events stamped at or after `time` are all the tablet sent since penkitd opened it.
    func holdsEverything(since time: UInt64) -> Bool {
        !evicted && (count == 0 || storage[start].time >= time)
    }
}
