/// Recovers raw pen positions from libinput's smoothed ones.
///
/// libinput (evdev-tablet.c, tablet_history_push / tablet_smoothen_axes) reports the mean of
/// its last `window` raw positions. After a reset (contact change, proximity out) the first
/// raw position fills the whole history, so that first report is exact, and every later raw
/// position is `window × smoothed − (the other window − 1 entries)`. Two things keep the
/// inversion from being exact in practice: libinput rounds the mean down to whole device units
/// (unknown here: positions arrive in mm), and a history push that produced no event is
/// invisible. Each leaves an error whose running sum over a window stays within a few units,
/// but that can alternate in sign from sample to sample, so the recovered path is noisier
/// than the pen's; predictors fitted over several samples average that out.
public struct SmoothingInverse: Sendable {
    public let window: Int
    /// The recovered raw positions still in libinput's history, newest at `head`.
    private var entries: [SIMD2<Double>]
    private var head = 0
    /// Real samples in the history since the last reset, at most `window`.
    public private(set) var distinct = 0

    public init(window: Int) {
        self.window = max(window, 1)
        entries = Array(repeating: SIMD2(0, 0), count: self.window)
    }

    public mutating func reset() { distinct = 0 }

    /// Takes the next smoothed position and returns the raw position it implies.
    public mutating func raw(from smoothed: SIMD2<Double>) -> SIMD2<Double> {
        guard window > 1 else {
            distinct = 1
            return smoothed
        }
        var raw = smoothed
        if distinct == 0 {
            for i in 0..<window { entries[i] = smoothed }
        } else {
            // The entries other than the oldest stay in the history with the new one.
            var others = SIMD2<Double>(0, 0)
            for back in 0..<(window - 1) { others += entries[(head - back + window) % window] }
            raw = Double(window) * smoothed - others
        }
        head = (head + 1) % window
        entries[head] = raw
        distinct = min(distinct + 1, window)
        return raw
    }
}
