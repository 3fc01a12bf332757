/// libinput 1.22's one timing-dependent tablet behaviour: until a device has shown that it
/// sends its own proximity-out, 50 ms without a frame ends the proximity (a timer). A replay
/// whose timing puts a gap on the other side of 50 ms than the trace, or a reader that
/// dispatched libinput too late to let the timer fire before the next frame, would record
/// something real hardware would not produce. This check finds such runs so they can be
/// repeated; it models nothing of libinput but the 50 ms.
struct ForcedProximityCheck {
    static let timeout: UInt64 = 50_000
    /// Timer slack allowed between expiry and libinput seeing its timerfd readable.
    static let slack: UInt64 = 1_000

    /// Problems found, in words; empty when the run is faithful.
    static func problems(map: ReplayTimeMap, timerEventKernelTimes: [UInt64], dispatchTimes: [UInt64]) -> [String] {
        var problems: [String] = []
        let pairs = map.pairs
        guard pairs.count > 1 else { return [] }
        for k in 1..<pairs.count {
            let kernelGap = pairs[k].kernel - pairs[k - 1].kernel
            let traceGap = pairs[k].trace - pairs[k - 1].trace
            if (kernelGap >= timeout) != (traceGap >= timeout) {
                problems.append("frame \(k): gap \(traceGap) µs in the trace was replayed as \(kernelGap) µs, across libinput's 50 ms timeout")
            }
            if kernelGap >= timeout + slack {
                // libinput must have been dispatched after the timer expired and before the next frame.
                let expiry = pairs[k - 1].kernel + timeout + slack
                if !contains(dispatchTimes, from: expiry, before: pairs[k].kernel) {
                    problems.append("frame \(k): libinput was not dispatched between its 50 ms timer expiring and the next frame \(kernelGap) µs later")
                }
            }
        }
        for t in timerEventKernelTimes {
            // The first frame after the timer event must be at least 50 ms after the one before it.
            guard let next = pairs.firstIndex(where: { $0.kernel > t }), next > 0 else { continue }
            let gap = pairs[next].kernel - pairs[next - 1].kernel
            if gap < timeout {
                problems.append("a forced proximity-out fired in a gap of only \(gap) µs (libinput was dispatched late)")
            }
        }
        return problems
    }

    /// Whether the sorted `times` has a value in [from, before).
    private static func contains(_ times: [UInt64], from: UInt64, before: UInt64) -> Bool {
        var lo = 0, hi = times.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if times[mid] < from { lo = mid + 1 } else { hi = mid }
        }
        return lo < times.count && times[lo] < before
    }
}
