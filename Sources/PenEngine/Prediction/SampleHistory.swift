import DequeModule

/// The last few real samples, newest last, in a deque whose storage is reserved once:
/// predictors run on every frame and must not allocate there.
public struct SampleHistory: Sendable {
    private var storage: Deque<PredictionSample>
    public let capacity: Int

    public init(capacity: Int) {
        precondition(capacity > 0, "history capacity must be positive")
        self.capacity = capacity
        storage = Deque(minimumCapacity: capacity)
    }

    public var count: Int { storage.count }
    public var isEmpty: Bool { storage.isEmpty }

    public mutating func append(_ sample: PredictionSample) {
        if storage.count == capacity { storage.removeFirst() }
        storage.append(sample)
    }

    public mutating func removeAll() {
        storage.removeAll(keepingCapacity: true)
    }

    /// `fromEnd` 0 is the newest sample, 1 the one before, ...
    public subscript(fromEnd fromEnd: Int) -> PredictionSample {
        precondition(fromEnd >= 0 && fromEnd < storage.count, "history index out of range")
        return storage[storage.count - 1 - fromEnd]
    }

    public var last: PredictionSample? { count > 0 ? self[fromEnd: 0] : nil }
}
