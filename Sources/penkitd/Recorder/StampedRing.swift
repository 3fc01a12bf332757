import DequeModule
import PenInput

/// What the flight recorder's rings hold: something with its time (µs, the events' clock).
protocol Stamped: Sendable {
    var time: UInt64 { get }
}

extension EvdevEvent: Stamped {}

/// The newest stamped elements, oldest first: at most `capacity`, and none older than `span`
/// before the newest (no window can ask for those). The elements live in chunks of
/// `chunkSize`, taken as the ring fills and given back to a pool of spare chunks as the oldest
/// elements go, so its memory follows what the tablet actually sent in the window (a pen at
/// 200 Hz: about a tenth of the 4000 events a second the capacity allows), not the worst case.
/// Appending allocates a chunk only when the pool has none: never once the ring has held a
/// window's worth. The pool keeps what the busiest window took, no more than the capacity.
/// A value kept only under `FlightRecorder`'s lock.
struct StampedRing<Element: Stamped>: Sendable {
    /// 4096 evdev events are 64 KiB: a few seconds of a busy pen.
    static var chunkSize: Int { 4096 }

    let capacity: Int
    let span: UInt64
    private var chunks: Deque<[Element]> = []
    /// Where the oldest element is in the first chunk.
    private var head = 0
    private var spare: [[Element]] = []
    private(set) var count = 0
    /// Whether an element ever gave way: the ring no longer holds the first ones.
    private(set) var evicted = false

    init(capacity: Int, span: UInt64) {
        self.capacity = max(capacity, 1)
        self.span = span
        let most = self.capacity / Self.chunkSize + 2
        chunks.reserveCapacity(most)
        spare.reserveCapacity(most)
    }

    mutating func append(_ element: Element) {
        if chunks.isEmpty || chunks[chunks.count - 1].count == Self.chunkSize {
            var chunk = spare.popLast() ?? []
            chunk.reserveCapacity(Self.chunkSize)
            chunks.append(chunk)
        }
        chunks[chunks.count - 1].append(element)
        count += 1
        let oldest = element.time > span ? element.time - span : 0
        while count > capacity || chunks[0][head].time < oldest {
            dropOldest()
        }
    }

    private mutating func dropOldest() {
        evicted = true
        count -= 1
        head += 1
        guard head == chunks[0].count else { return }
        // The first chunk is spent: to the pool, unless it is the only one (then it is reused).
        head = 0
        if chunks.count == 1 {
            chunks[0].removeAll(keepingCapacity: true)
        } else {
            var spent = chunks.removeFirst()
            spent.removeAll(keepingCapacity: true)
            spare.append(spent)
        }
    }

    /// The elements stamped at or after `time`, oldest first.
    func elements(since time: UInt64) -> [Element] {
        var result: [Element] = []
        result.reserveCapacity(count)
        for (index, chunk) in chunks.enumerated() {
            for element in chunk[(index == 0 ? head : 0)...] where element.time >= time { result.append(element) }
        }
        return result
    }

    /// Whether the elements stamped at or after `time` are all that came since the ring began.
    func holdsEverything(since time: UInt64) -> Bool {
        !evicted && (count == 0 || chunks[0][head].time >= time)
    }
}
