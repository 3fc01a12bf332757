import CLibevdev
import PenInput
import PenInputLinux
import PenKit

/// libinput 1.22's one timing-dependent tablet behaviour: until a device has shown that it
/// sends its own proximity-out, 50 ms without a frame ends the proximity (a timer). A replay
/// whose timing puts a gap on the other side of 50 ms than the trace, or a reader that
/// dispatched libinput too late to let the timer fire before the next frame, would record
/// something real hardware would not produce. This check finds such runs so they can be
/// repeated. Only gaps where libinput's timer is armed count (see `armedGaps`): elsewhere
/// the timing of a frame changes nothing libinput reports.
struct ForcedProximityCheck {
    static let timeout: UInt64 = 50_000
    /// Timer slack allowed between expiry and libinput seeing its timerfd readable.
    static let slack: UInt64 = 1_000

    /// Problems found, in words; empty when the run is faithful.
    /// - Parameter armed: per delivered frame k, whether libinput's timer was armed in the gap
    ///   before it (index 0 unused); nil treats every gap as armed.
    static func problems(map: ReplayTimeMap, timerEventKernelTimes: [UInt64], dispatchTimes: [UInt64],
                         armed: [Bool]? = nil) -> [String] {
        var problems: [String] = []
        let pairs = map.pairs
        guard pairs.count > 1 else { return [] }
        for k in 1..<pairs.count where armed?[k] ?? true {
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

    /// For each delivered frame k, whether libinput 1.22 had its proximity timer armed in the
    /// gap before it, from libinput's own events up to the frame before the gap: a tool in
    /// proximity, tip up, no button down, and the device not yet seen sending BTN_TOOL_PEN 0
    /// itself (after which libinput stops forcing proximity-out).
    static func armedGaps(delivered: [EvdevFrame], events: [TabletEvent]) -> [Bool] {
        var armed = [Bool](repeating: false, count: delivered.count)
        var inProximity = false, tipDown = false
        var buttons = Set<UInt32>()
        var deviceSendsProximityOut = false
        var next = 0
        for k in delivered.indices {
            if k > 0 {
                armed[k] = inProximity && !tipDown && buttons.isEmpty && !deviceSendsProximityOut
            }
            // Fold in libinput's events up to and including this frame (timer events in the
            // gap before it included).
            while next < events.count && events[next].time <= delivered[k].time {
                let e = events[next]
                tipDown = e.tipDown
                switch (e.kind, e.state) {
                case (.proximity, .proximityIn?): inProximity = true
                case (.proximity, .proximityOut?): inProximity = false; buttons.removeAll()
                case (.button, .pressed?): if let b = e.button { buttons.insert(b) }
                case (.button, .released?): if let b = e.button { buttons.remove(b) }
                default: break
                }
                next += 1
            }
            if delivered[k].events.contains(where: { $0.type == UInt16(EV_KEY) && $0.code == UInt16(BTN_TOOL_PEN) && $0.value == 0 }) {
                deviceSendsProximityOut = true
            }
        }
        return armed
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
