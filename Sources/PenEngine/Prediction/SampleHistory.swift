import DequeModule

/// The last few real samples, newest last, in a deque whose storage is reserved once:
/// predictors run on every frame and must not allocate there.
package struct SampleHistory: Sendable {
    private var storage: Deque<PredictionSample>
    package let capacity: Int

    package init(capacity: Int) {
        precondition(capacity > 0, "history capacity must be positive")
        self.capacity = capacity
        storage = Deque(minimumCapacity: capacity)
    }

    package var count: Int { storage.count }
    package var isEmpty: Bool { storage.isEmpty }

    package mutating func append(_ sample: PredictionSample) {
        if storage.count == capacity { storage.removeFirst() }
        storage.append(sample)
    }

    package mutating func removeAll() {
        storage.removeAll(keepingCapacity: true)
    }

    /// `fromEnd` 0 is the newest sample, 1 the one before, ...
    package subscript(fromEnd fromEnd: Int) -> PredictionSample {
        precondition(fromEnd >= 0 && fromEnd < storage.count, "history index out of range")
        return storage[storage.count - 1 - fromEnd]
    }

    package var last: PredictionSample? { count > 0 ? self[fromEnd: 0] : nil }
}
