import PenKit

/// `virtual-tablet-lead-ms`: how far ahead of the real pen the virtual tablet writes it, on penkit's
/// prediction, while the pen is in contact (0, the default: never). A lead trades accuracy for
/// latency: apps draw where the pen is predicted to be `lead` from now, and where the prediction
/// is wrong they draw that error (docs/virtual-tablet.md has the cost per lead). A lift never
/// leaves a predicted tail: the report that lifts the pen first puts the real pen of the last
/// report in contact back down (VirtualPen), so the ink ends as it does without a lead.
package struct VirtualTabletLead: Sendable, Hashable {
    /// The largest lead a user may ask for (ms): past it penkit's prediction errs by more than
    /// libinput's smoothing trails (docs/prediction.md).
    package static let largestMilliseconds = 8

    package let microseconds: UInt64

    package init(milliseconds: Int) {
        microseconds = UInt64(min(max(milliseconds, 0), Self.largestMilliseconds)) * 1000
    }

    package var isOff: Bool { microseconds == 0 }

    /// How far the frame's prediction moves the pen `lead` past its sample (mm, the frame's
    /// space), interpolated between predicted samples and held at the last one when the
    /// prediction reaches less far; nil while hovering, without predictions, or with no lead.
    package func offset(in frame: Frame) -> SIMD2<Double>? {
        guard !isOff, frame.stroke != nil, let last = frame.predicted.last else { return nil }
        let target = frame.sample.time &+ microseconds
        let origin = SIMD2(frame.sample.x, frame.sample.y)
        var before = frame.sample
        for p in frame.predicted {
            if p.time >= target {
                let span = Double(p.time &- before.time)
                let f = span > 0 ? Double(target &- before.time) / span : 1
                let x = before.x + f * (p.x - before.x), y = before.y + f * (p.y - before.y)
                return SIMD2(x, y) - origin
            }
            before = p
        }
        return SIMD2(last.x, last.y) - origin
    }
}
