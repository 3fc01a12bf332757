import PenKit

/// The digests of the newest engine lines penkitd published (`LineDigest`), with when, in a
/// `StampedRing`: adding one allocates nothing once the ring has held a window's worth, and the
/// oldest gives way when it is full or older than the window. The lines themselves are not kept:
/// a replay of the recorded events makes them again, and their digests say whether it made them
/// byte for byte (`penkit replay REPORT --check`). A value kept only under `FlightRecorder`'s lock.
struct DigestRing: Sendable {
    struct Entry: Stamped, Equatable {
        var time: UInt64
        var digest: LineDigest
    }

    private var ring: StampedRing<Entry>
    var capacity: Int { ring.capacity }
    var count: Int { ring.count }

    /// `span`: µs, the longest window asked for.
    init(capacity: Int, span: UInt64 = .max) {
        ring = StampedRing(capacity: capacity, span: span)
    }

    mutating func append(_ digest: LineDigest, time: UInt64) {
        ring.append(Entry(time: time, digest: digest))
    }

    /// The entries stamped at or after `time`, oldest first.
    func entries(since time: UInt64) -> [Entry] { ring.elements(since: time) }
}
