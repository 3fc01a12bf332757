import Synchronization

/// The long strokes' part lines encoded lately (`PartedStroke`), shared by every reader: clients
/// that read a stroke at about the same pace (the common case: every client gets it as it is
/// finalized) encode each part once between them rather than once each. Bounded by entries, so it
/// holds at most `capacity` parts (256 KiB each at most) whatever the strokes' lengths.
///
/// A reader keeps the line it was given (an array, shared) for as long as it needs it, so an entry
/// let go while a reader still writes it from is not freed under it.
package final class EncodedPartCache: Sendable {
    package static let shared = EncodedPartCache(capacity: 16)

    private struct Entry {
        var owner: UInt64
        var index: Int
        var line: [UInt8]
    }

    private struct State {
        /// Oldest first.
        var entries: [Entry] = []
        var nextOwner: UInt64 = 0
        var hits = 0
        var misses = 0
    }

    private let capacity: Int
    private let state = Mutex(State())

    package init(capacity: Int) { self.capacity = max(capacity, 1) }

    /// A key no stroke made before holds.
    func newOwner() -> UInt64 {
        state.withLock { state in
            state.nextOwner += 1
            return state.nextOwner
        }
    }

    /// `owner`'s part `index`, from the cache, or made by `encode` (outside the lock: two readers
    /// may both encode one part, and the lines are the same) and kept in place of the oldest.
    func line(owner: UInt64, index: Int, encode: () -> [UInt8]) -> [UInt8] {
        let cached: [UInt8]? = state.withLock { state in
            guard let entry = state.entries.first(where: { $0.owner == owner && $0.index == index }) else {
                state.misses += 1
                return nil
            }
            state.hits += 1
            return entry.line
        }
        if let cached { return cached }
        let line = encode()
        state.withLock { state in
            guard !state.entries.contains(where: { $0.owner == owner && $0.index == index }) else { return }
            if state.entries.count >= capacity { state.entries.removeFirst() }
            state.entries.append(Entry(owner: owner, index: index, line: line))
        }
        return line
    }

    /// Lets go of a stroke's parts (the stroke is gone).
    func forget(owner: UInt64) {
        state.withLock { state in state.entries.removeAll { $0.owner == owner } }
    }

    /// Parts found in the cache and parts encoded, since start (for tests and benchmarks).
    package var lookups: (hits: Int, misses: Int) { state.withLock { ($0.hits, $0.misses) } }

    /// Bytes of the lines held now.
    package var heldBytes: Int { state.withLock { $0.entries.reduce(0) { $0 + $1.line.count } } }
}
