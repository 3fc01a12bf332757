import PenKit

/// What penkitd checks on one source connection: time never goes backwards nor ahead of
/// arrival, and readings come no faster than a pen produces them.
struct PressureSourceSession {
    let device: Int
    private var lastTime: UInt64 = 0
    private var tokens = Double(Self.burst)
    private var lastRefill: UInt64

    /// Readings per second a source may send on average, and in one burst: twice the
    /// fastest pen report rates (500 Hz), so only a misbehaving source reaches them.
    static let rate = 1000
    static let burst = 1000
    /// How far a reading's time may lie ahead of its arrival: clock granularity only (the
    /// source and penkitd share CLOCK_MONOTONIC); anything more is a lie.
    static let futureSlack: UInt64 = 2_000

    init(device: Int, now: UInt64) {
        self.device = device
        lastRefill = now
    }

    /// nil when the reading is acceptable; otherwise the fatal error that ends the source.
    mutating func check(_ reading: PressureReading, now: UInt64) -> ErrorMessage? {
        tokens = min(Double(Self.burst), tokens + Double(now &- lastRefill) * Double(Self.rate) / 1_000_000)
        lastRefill = now
        guard tokens >= 1 else {
            return ErrorMessage(code: .flood, message: "more than \(Self.rate) readings a second (bursts of \(Self.burst)): "
                + "not a pen; device \(device) falls back to in-band pressure", fatal: true)
        }
        tokens -= 1
        if reading.time > now &+ Self.futureSlack {
            return ErrorMessage(code: .timeInFuture, message: "reading time \(reading.time) µs is \(reading.time - now) µs after it "
                + "arrived (CLOCK_MONOTONIC); device \(device) falls back to in-band pressure", fatal: true)
        }
        if reading.time < lastTime {
            return ErrorMessage(code: .timeBackwards, message: "reading time \(reading.time) µs is before the previous reading's "
                + "\(lastTime) µs; device \(device) falls back to in-band pressure", fatal: true)
        }
        lastTime = reading.time
        return nil
    }
}
