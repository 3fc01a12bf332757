import DequeModule
import PenEngine

/// Recovers raw pen positions from libinput's smoothed ones.
///
/// libinput (evdev-tablet.c, tablet_history_push / tablet_smoothen_axes) reports the mean of
/// its last `window` raw positions. After a reset (contact change, proximity out) the first
/// raw position fills the whole history, so that first report is exact, and every later raw
/// position is `window × smoothed − (the other window − 1 entries)`. Two things keep this from
/// being exact on real input, both measured in docs/prediction.md: libinput rounds the mean
/// down to whole device units (unknown here: positions arrive in mm), and a frame that changes
/// no axis (within fuzz) still pushes into libinput's history without an event this can see.
/// Either leaves an error whose sum over a window stays small but that alternates in sign from
/// sample to sample; predictors that fit several samples average it out. (Choosing within the
/// rounding band, or guessing unseen pushes, by how smoothly the path continues was tried and
/// measured worse: wrong guesses compound.)
public struct SmoothingInverse: Sendable {
    public let window: Int
    /// The recovered raw positions still in libinput's history, newest last (its storage
    /// reserved once: this runs on every sample).
    private var entries: Deque<SIMD2<Double>>
    /// Real samples in the history since the last reset, at most `window`.
    public private(set) var distinct = 0

    public init(window: Int) {
        self.window = max(window, 1)
        entries = Deque(minimumCapacity: self.window)
    }

    public mutating func reset() {
        distinct = 0
    }

    /// Takes the next smoothed position and returns the raw position it implies.
    public mutating func raw(from smoothed: SIMD2<Double>) -> SIMD2<Double> {
        guard window > 1 else {
            distinct = 1
            return smoothed
        }
        var raw = smoothed
        if distinct == 0 {
            entries.removeAll(keepingCapacity: true)
            for _ in 0..<window { entries.append(smoothed) }
        } else {
            raw = inverted(smoothed)
        }
        entries.removeFirst()
        entries.append(raw)
        distinct = min(distinct + 1, window)
        return raw
    }

    /// `window × smoothed − the window − 1 newest entries` (which stay in the history).
    private func inverted(_ smoothed: SIMD2<Double>) -> SIMD2<Double> {
        var others = SIMD2<Double>(0, 0)
        // Newest first, the order the sum was always taken in (floating-point sums depend on it).
        for back in 0..<(window - 1) { others += entries[window - 1 - back] }
        return Double(window) * smoothed - others
    }
}

extension SmoothingInverse {
    /// Follows libinput's history: restarted at a new proximity and a contact change, kept across a gap.
    mutating func reset(for event: PredictionReset) {
        if event != .gap { reset() }
    }
}
