/// One penkit device as `SurfacePairing` sees it: its recent frames, its pairs and its map.
struct DeviceLink: Sendable {
    struct RememberedFrame: Sendable {
        var frame: Frame
        /// The frame's time in ms, on penkit's clock: when the virtual tablet wrote the report
        /// (`delivered.time`) where it did, the time apps get for it; else the real report's.
        var time: Double
        /// The position the app's event for this report carries: `delivered` or the sample's.
        var x: Double, y: Double
    }

    /// In time order; trimmed in chunks so that appending stays O(1).
    var frames: [RememberedFrame] = []
    var pairs: [SurfacePair] = []
    /// Pairs off the map, in a row: a glitch, a moved window or a new mapping.
    var suspects: [SurfacePair] = []
    var map: AffineTransform?
    /// The map stands on enough spread pairs: deliveries may use it.
    var ready = false
    var rms = 0.0
    /// The standard error `reach` mm out of the full fit whose linear part the map uses.
    var linearError = Double.infinity
    /// The maps in force since which frame time (µs), oldest first, to place a finalized stroke's
    /// points with the map of their own time when the window moved mid-stroke.
    var history: [(from: UInt64, map: AffineTransform)] = []
    /// The newest frame time (µs) delivered, so that a catch-up never repeats a frame.
    var lastDelivered: UInt64 = 0

    var deliveryMap: AffineTransform? { ready ? map : nil }

    mutating func remember(_ frame: Frame, pairedAt position: (x: Double, y: Double), limit: Int) {
        // (Kept in order for the binary searches: a frame the virtual tablet wrote nothing for
        // carries its report's time, which may come before the previous frame's write.)
        let time = max(Double(frame.delivered?.time ?? frame.sample.time) / 1000, frames.last?.time ?? -.infinity)
        frames.append(RememberedFrame(frame: frame, time: time, x: position.x, y: position.y))
        if frames.count > 2 * limit { frames.removeFirst(frames.count - limit) }
    }

    /// Index of the first frame at or after `time` (ms).
    func firstFrame(atOrAfter time: Double) -> Int {
        var lo = 0, hi = frames.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if frames[mid].time < time { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    /// Whether every set of these frames is too narrow for a map: the spread a fit needs (the
    /// standard deviation across its thinnest direction) is at most half the frames' extent in
    /// any direction, so frames less than `2 × spread` wide across x, y or a diagonal (a resting
    /// pen, a tap) can give no trial of the search enough of it, and the search is skipped.
    func tooNarrow(forSpread spread: Double) -> Bool {
        guard let first = frames.first else { return true }
        var (lowX, highX, lowY, highY) = (first.x, first.x, first.y, first.y)
        var (lowSum, highSum, lowDifference, highDifference) = (first.x + first.y, first.x + first.y, first.x - first.y, first.x - first.y)
        for f in frames {
            lowX = min(lowX, f.x); highX = max(highX, f.x)
            lowY = min(lowY, f.y); highY = max(highY, f.y)
            lowSum = min(lowSum, f.x + f.y); highSum = max(highSum, f.x + f.y)
            lowDifference = min(lowDifference, f.x - f.y); highDifference = max(highDifference, f.x - f.y)
        }
        // (x ± y spans √2 times the width along its diagonal.)
        let width = min(highX - lowX, highY - lowY, (highSum - lowSum) / 2.squareRoot(), (highDifference - lowDifference) / 2.squareRoot())
        return width < 2 * spread * (1 - 1e-9)
    }

    func map(at time: UInt64) -> AffineTransform {
        var chosen = history.first?.map ?? map ?? .identity
        for segment in history where segment.from <= time { chosen = segment.map }
        return chosen
    }

    mutating func recordMap(_ map: AffineTransform, from time: UInt64, newSegment: Bool) {
        if newSegment || history.isEmpty {
            history.append((time, map))
            if history.count > 16 { history.removeFirst() }
        } else {
            history[history.count - 1].map = map
        }
    }
}
