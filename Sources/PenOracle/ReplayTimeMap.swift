import PenInput
import PenInputLinux

/// Maps kernel timestamps of a uinput replay back to the trace's own clock.
///
/// Every frame the kernel delivered is paired with the trace frame that produced it, so an
/// event libinput stamps with a frame's kernel time gets that frame's trace time exactly.
/// An event libinput makes from a timer (the forced proximity-out) keeps its distance from
/// the last frame before it, which includes how late the timer was dispatched.
package struct ReplayTimeMap: Sendable {
    /// (kernel time, trace time) per delivered frame, in order.
    package private(set) var pairs: [(kernel: UInt64, trace: UInt64)]

    /// Pairs delivered frames with the trace's frames, checking that the kernel delivered
    /// exactly what the input core should pass on; a mismatch means the replay was not
    /// faithful (a dropped or altered frame, fuzz still applied) and is an error.
    package init(device: DeviceDescription, traceFrames: [EvdevFrame], delivered: [EvdevFrame]) throws {
        var filter = KernelInputFilter(device: device)
        let expected = traceFrames.compactMap { filter.pass($0) }
        guard expected.count == delivered.count else {
            throw UinputError("the kernel delivered \(delivered.count) frames where \(expected.count) were expected")
        }
        pairs = []
        pairs.reserveCapacity(expected.count)
        for (index, (want, got)) in zip(expected, delivered).enumerated() {
            let same = want.events.count == got.events.count && zip(want.events, got.events).allSatisfy {
                $0.type == $1.type && $0.code == $1.code && $0.value == $1.value
            }
            guard same else {
                throw UinputError("delivered frame \(index) differs from the trace's: expected \(Self.describe(want)), got \(Self.describe(got))")
            }
            pairs.append((kernel: got.time, trace: want.time))
        }
    }

    /// The trace time of a kernel time.
    package func traceTime(ofKernelTime t: UInt64) -> UInt64 {
        guard let first = pairs.first else { return t }
        // Last pair with kernel <= t.
        var lo = 0, hi = pairs.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if pairs[mid].kernel <= t { lo = mid + 1 } else { hi = mid }
        }
        guard lo > 0 else { return first.trace - min(first.trace, first.kernel - t) }
        let pair = pairs[lo - 1]
        return pair.trace + (t - pair.kernel)
    }

    /// Replay timing error per delivered frame (µs): the frame's kernel offset from the first
    /// delivered frame minus its trace offset from the first.
    package var timingErrors: [Int64] {
        guard let first = pairs.first else { return [] }
        return pairs.map { Int64($0.kernel - first.kernel) - Int64($0.trace - first.trace) }
    }

    private static func describe(_ frame: EvdevFrame) -> String {
        frame.events.map { "\($0.type):\($0.code)=\($0.value)" }.joined(separator: " ")
    }
}
