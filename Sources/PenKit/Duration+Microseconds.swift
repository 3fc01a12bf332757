extension Duration {
    /// Whole microseconds, for the µs timestamps of events and messages: a negative duration is 0,
    /// one past 2⁶⁴ µs is UInt64.max.
    package var wholeMicroseconds: UInt64 {
        let (seconds, attoseconds) = components
        guard seconds >= 0, attoseconds >= 0 else { return 0 }
        let (micros, overflow) = UInt64(seconds).multipliedReportingOverflow(by: 1_000_000)
        let (total, carry) = micros.addingReportingOverflow(UInt64(attoseconds / 1_000_000_000_000))
        return overflow || carry ? .max : total
    }
}

extension Duration {
    /// Seconds as a Double, for arithmetic done once at a boundary (not per sample). A duration
    /// under a second is its attoseconds divided once, so `.milliseconds(7)` is exactly 0.007.
    package var inSeconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
