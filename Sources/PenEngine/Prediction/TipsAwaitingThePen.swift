/// Predicted tips kept until the real pen reaches their time, then handed back with where the
/// real pen was at that time (interpolated between the two real samples around it). What the
/// stage learns online from its own predictions (PredictionCalibration, ResidualCorrection) is
/// scored this way. Fixed storage: the oldest tip goes when it is full.
struct TipsAwaitingThePen<Tip: Sendable>: Sendable {
    /// A real sample: x, y (mm) and pressure.
    typealias Real = SIMD3<Double>

    private var ring: [(target: UInt64, tip: Tip)]
    private var head = 0
    private var count = 0
    private var previous: (time: UInt64, real: Real)?
    private var newest: (time: UInt64, real: Real)?

    init(capacity: Int, filler: Tip) {
        ring = Array(repeating: (0, filler), count: capacity)
    }

    /// How many tips await the pen.
    var waiting: Int { count }

    /// The latest time a kept tip awaits, if any.
    var newestTarget: UInt64? { count > 0 ? ring[(head + count - 1) % ring.count].target : nil }

    mutating func keep(_ tip: Tip, until target: UInt64) {
        if count == ring.count {
            head = (head + 1) % ring.count
            count -= 1
        }
        ring[(head + count) % ring.count] = (target, tip)
        count += 1
    }

    /// A contact change, a gap or a reset: the tips and the real path so far go.
    mutating func forget() {
        count = 0
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
        while count > 0 {
            let (target, tip) = ring[head]
            guard target <= newest.time else { return nil }
            head = (head + 1) % ring.count
            count -= 1
            guard let previous, target >= previous.time, newest.time > previous.time else { continue }
            let f = Double(target - previous.time) / Double(newest.time - previous.time)
            return (tip, previous.real + (newest.real - previous.real) * f)
        }
        return nil
    }
}
