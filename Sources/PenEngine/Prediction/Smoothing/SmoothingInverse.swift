/// Recovers raw pen positions from libinput's smoothed ones.
///
/// libinput (evdev-tablet.c, tablet_history_push / tablet_smoothen_axes) reports the mean of
/// its last `window` raw positions. After a reset (contact change, proximity out) the first
/// raw position fills the whole history, so that first report is exact, and every later raw
/// position is `window × smoothed − (the other window − 1 entries)`. But libinput rounds the
/// mean down to whole device units, so the sum is only known to within `window − 1` units, and
/// a plain inversion lets that error wander in patterns the mean cannot see (alternating signs
/// from sample to sample). Within that band this picks the position closest to a straight
/// continuation of the last two, which keeps the wandering down. The unit is learned as the
/// smallest change seen between smoothed positions (positions arrive in mm).
public struct SmoothingInverse: Sendable {
    public let window: Int
    /// The recovered raw positions still in libinput's history, newest at `head`.
    private var entries: [SIMD2<Double>]
    private var head = 0
    private var previousSmoothed: SIMD2<Double>?
    /// The device unit in mm per axis, as learned (infinite until a change was seen).
    public private(set) var unit = SIMD2<Double>(.infinity, .infinity)
    /// Real samples in the history since the last reset, at most `window`.
    public private(set) var distinct = 0

    public init(window: Int) {
        self.window = max(window, 1)
        entries = Array(repeating: SIMD2(0, 0), count: self.window)
    }

    public mutating func reset() {
        distinct = 0
        previousSmoothed = nil
    }

    /// Takes the next smoothed position and returns the raw position it implies.
    public mutating func raw(from smoothed: SIMD2<Double>) -> SIMD2<Double> {
        guard window > 1 else {
            distinct = 1
            return smoothed
        }
        learnUnit(smoothed)
        var raw = smoothed
        if distinct == 0 {
            for i in 0..<window { entries[i] = smoothed }
        } else {
            let half = unit[0].isFinite && unit[1].isFinite ? 0.5 * Double(window - 1) * unit : SIMD2(0, 0)
            raw = inverted(smoothed) + half
        }
        head = (head + 1) % window
        entries[head] = raw
        distinct = min(distinct + 1, window)
        return raw
    }

    /// `window × smoothed − the window − 1 newest entries` (which stay in the history).
    private func inverted(_ smoothed: SIMD2<Double>) -> SIMD2<Double> {
        var others = SIMD2<Double>(0, 0)
        for back in 0..<(window - 1) { others += entries[(head - back + window) % window] }
        return Double(window) * smoothed - others
    }

    private mutating func learnUnit(_ smoothed: SIMD2<Double>) {
        defer { previousSmoothed = smoothed }
        guard let previousSmoothed else { return }
        // Below a micrometre is float noise, not a device unit.
        for axis in 0..<2 {
            let change = abs(smoothed[axis] - previousSmoothed[axis])
            if change > 1e-4 && change < unit[axis] { unit[axis] = change }
        }
    }
}
