import Glibc

/// CLOCK_MONOTONIC in microseconds: the clock of libinput's event times, so a
/// replay paced in real time stamps its events exactly as live input would be.
enum MonotonicClock {
    static func now() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(ts.tv_sec) * 1_000_000 + UInt64(ts.tv_nsec) / 1_000
    }

    /// Sleeps until the absolute time `deadline` (µs), immune to drift from earlier sleeps.
    static func sleep(until deadline: UInt64) {
        var ts = timespec(tv_sec: Int(deadline / 1_000_000), tv_nsec: Int(deadline % 1_000_000) * 1_000)
        while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, nil) == EINTR {}
    }
}
