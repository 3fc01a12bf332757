/// Arithmetic on event times (µs), which come from input: a trace or a device may stamp any time,
/// so a sum saturates at the end of the clock rather than trap.
extension UInt64 {
    /// `self + other`, or `UInt64.max` where that would overflow.
    @inlinable
    package func saturatingAdd(_ other: UInt64) -> UInt64 {
        let (sum, overflow) = addingReportingOverflow(other)
        return overflow ? .max : sum
    }

    /// Whole microseconds in `seconds`, rounded: 0 for a negative span or NaN, `UInt64.max` past it.
    @inlinable
    package init(saturatingMicroseconds seconds: Double) {
        let micros = (seconds * 1e6).rounded()
        if !(micros > 0) {
            self = 0
        } else if micros >= 18_446_744_073_709_551_616.0 {
            self = .max
        } else {
            self = UInt64(micros)
        }
    }
}
