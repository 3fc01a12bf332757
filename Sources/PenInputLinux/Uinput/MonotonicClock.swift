import Glibc
import PenInput

/// CLOCK_MONOTONIC in microseconds: the clock the kernel stamps input events with
/// for readers that ask for it (libinput does), so replay times and event times compare.
public enum MonotonicClock {
    public static func nowMicroseconds() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(ts.tv_sec) * 1_000_000 + UInt64(ts.tv_nsec) / 1_000
    }

    /// Sleeps until the absolute monotonic time `deadline` (µs). Absolute deadlines keep
    /// a long replay from drifting: a late wake-up delays one frame, not every later one.
    public static func sleep(untilMicroseconds deadline: UInt64) {
        var ts = timespec(tv_sec: Int(deadline / 1_000_000), tv_nsec: Int(deadline % 1_000_000) * 1_000)
        while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, nil) == EINTR {}
    }
}
