/// The last few real samples, newest last, in storage allocated once: predictors run on
/// every frame and must not allocate there.
public struct SampleHistory: Sendable {
    private var storage: [PredictionSample]
    private var head = 0
    public private(set) var count = 0
    public let capacity: Int

    public init(capacity: Int) {
        precondition(capacity > 0, "history capacity must be positive")
        self.capacity = capacity
        storage = Array(repeating: PredictionSample(time: 0, x: 0, y: 0), count: capacity)
    }

    public var isEmpty: Bool { count == 0 }

    public mutating func append(_ sample: PredictionSample) {
        storage[(head + count) % capacity] = sample
        if count < capacity { count += 1 } else { head = (head + 1) % capacity }
    }

    public mutating func removeAll() {
        head = 0
        count = 0
    }

    /// `fromEnd` 0 is the newest sample, 1 the one before, ...
    public subscript(fromEnd fromEnd: Int) -> PredictionSample {
        precondition(fromEnd >= 0 && fromEnd < count, "history index out of range")
        return storage[(head + count - 1 - fromEnd) % capacity]
    }

    public var last: PredictionSample? { count > 0 ? self[fromEnd: 0] : nil }
}
