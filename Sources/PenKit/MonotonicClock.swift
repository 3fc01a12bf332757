#if canImport(Glibc)
import Glibc
#endif

/// CLOCK_MONOTONIC: the clock the kernel stamps input events with for readers that ask for it
/// (libinput does), so live event times, paced replay times and readings from a pressure
/// source all compare. penkit's one clock.
public enum MonotonicClock {
    /// Now, in microseconds (the unit of event times).
    public static func now() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(ts.tv_sec) * 1_000_000 + UInt64(ts.tv_nsec) / 1_000
    }

    /// Now, in nanoseconds, for timing what takes microseconds or less (benchmarks).
    public static func nanoseconds() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
    }

    /// Sleeps until the absolute time `deadline` (µs). Absolute deadlines keep a long replay from
    /// drifting: a late wake-up delays one frame, not every later one.
    public static func sleep(until deadline: UInt64) {
        var ts = timespec(tv_sec: Int(deadline / 1_000_000), tv_nsec: Int(deadline % 1_000_000) * 1_000)
        while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, nil) == EINTR {}
    }
}
