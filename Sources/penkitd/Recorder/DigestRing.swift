import PenKit

/// The digests of the newest engine lines penkitd published (`LineDigest`), with when, in an
/// array reserved once: adding one never allocates, and the oldest gives way when it is full.
/// The lines themselves are not kept: a replay of the recorded events makes them again, and
/// their digests say whether it made them byte for byte (`penkit replay REPORT --check`).
/// Its memory is reserved, not touched, until lines fill it.
/// A value kept only under `FlightRecorder`'s lock.
struct DigestRing: Sendable {
    struct Entry: Sendable, Equatable {
        var time: UInt64
        var digest: LineDigest
    }

    let capacity: Int
    private var entries: [Entry]
    private var start = 0
    var count: Int { entries.count }

    init(capacity: Int) {
        self.capacity = max(capacity, 1)
        entries = []
        entries.reserveCapacity(self.capacity)
    }

    mutating func append(_ digest: LineDigest, time: UInt64) {
        let entry = Entry(time: time, digest: digest)
        if entries.count < capacity {
            entries.append(entry)
        } else {
            entries[start] = entry
            start = (start + 1) % capacity
        }
    }

    /// The entries stamped at or after `time`, oldest first.
    func entries(since time: UInt64) -> [Entry] {
        var result: [Entry] = []
        for i in 0..<count {
            let entry = entries[(start + i) % count]
            if entry.time >= time { result.append(entry) }
        }
        return result
    }
}
