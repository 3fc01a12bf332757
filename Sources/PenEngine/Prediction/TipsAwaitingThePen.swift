import DequeModule

/// Predicted tips kept until the real pen reaches their time, then handed back with where the
/// real pen was at that time (interpolated between the two real samples around it). What the
/// stage learns online from its own predictions (PredictionCalibration, ResidualCorrection) is
/// scored this way. Fixed storage (a deque reserved once): the oldest tip goes when it is full.
struct TipsAwaitingThePen<Tip: Sendable>: Sendable {
    /// A real sample: x, y (mm) and pressure.
    typealias Real = SIMD3<Double>

    private var ring: Deque<(target: UInt64, tip: Tip)>
    private let capacity: Int
    private var previous: (time: UInt64, real: Real)?
    private var newest: (time: UInt64, real: Real)?

    init(capacity: Int) {
        self.capacity = max(capacity, 1)
        ring = Deque(minimumCapacity: self.capacity)
    }

    /// How many tips await the pen.
    var waiting: Int { ring.count }

    /// The latest time a kept tip awaits, if any.
    var newestTarget: UInt64? { ring.last?.target }

    mutating func keep(_ tip: Tip, until target: UInt64) {
        if ring.count == capacity { ring.removeFirst() }
        ring.append((target, tip))
    }

    /// A contact change, a gap or a reset: the tips and the real path so far go.
    mutating func forget() {
        ring.removeAll(keepingCapacity: true)
        previous = nil
        newest = nil
    }

    /// The newest real sample; `reached()` then hands back the tips whose time it has reached.
    mutating func observe(time: UInt64, real: Real) {
        previous = newest
        newest = (time, real)
    }

    /// The oldest tip whose time the newest real sample has reached, with the real pen at its
    /// time; nil once none is left. A tip from before the previous real sample is dropped
    /// unscored (the path around its time is no longer known).
    mutating func reached() -> (tip: Tip, real: Real)? {
        guard let newest else { return nil }
        while let (target, tip) = ring.first {
            guard target <= newest.time else { return nil }
            ring.removeFirst()
            guard let previous, target >= previous.time, newest.time > previous.time else { continue }
            let f = Double(target - previous.time) / Double(newest.time - previous.time)
            return (tip, previous.real + (newest.real - previous.real) * f)
        }
        return nil
    }
}
