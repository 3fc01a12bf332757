import PenKit

/// A path's pen as an app sees it: one sample per event that leaves the pen in proximity, with
/// the proximity it belongs to, so nothing is compared or differenced across a pen's absence.
package struct PenTrack: Sendable {
    package struct Sample: Sendable {
        package var time: UInt64
        package var position: SIMD2<Double>
        package var pressure: Double
        package var touching: Bool
        /// Which proximity (0, 1, …) of the track the sample belongs to.
        package var proximity: Int

        package init(time: UInt64, position: SIMD2<Double>, pressure: Double, touching: Bool, proximity: Int) {
            self.time = time
            self.position = position
            self.pressure = pressure
            self.touching = touching
            self.proximity = proximity
        }
    }

    package private(set) var samples: [Sample] = []

    /// A track from samples already in time order (an app's own pen events, docs/virtual-tablet.md).
    package init(samples: [Sample]) { self.samples = samples }

    package init(_ events: [TabletEvent]) {
        var proximity = -1
        var inProximity = false
        for event in events {
            if event.kind == .proximity {
                if event.state == .proximityOut { inProximity = false; continue }
                proximity += 1
                inProximity = true
            } else if !inProximity {
                continue
            }
            samples.append(Sample(time: event.time, position: SIMD2(event.axes.x, event.axes.y),
                                  pressure: event.axes.pressure, touching: event.tipDown, proximity: proximity))
        }
    }

    /// Where the pen was at `time` within `proximity`, interpolated linearly between samples;
    /// nil outside the proximity's samples.
    package func position(at time: Double, proximity: Int) -> SIMD2<Double>? {
        var low = 0, high = samples.count
        while low < high {
            let mid = (low + high) / 2
            if Double(samples[mid].time) < time { low = mid + 1 } else { high = mid }
        }
        // samples[low] is the first at or after `time`.
        guard low < samples.count, samples[low].proximity == proximity else { return nil }
        let after = samples[low]
        if Double(after.time) == time { return after.position }
        guard low > 0, samples[low - 1].proximity == proximity else { return nil }
        let before = samples[low - 1]
        let span = Double(after.time) - Double(before.time)
        guard span > 0 else { return after.position }
        let f = (time - Double(before.time)) / span
        return before.position + f * (after.position - before.position)
    }

    /// The proximity of the last sample at or before `time`.
    package func proximity(at time: UInt64) -> Int? {
        var low = 0, high = samples.count
        while low < high {
            let mid = (low + high) / 2
            if samples[mid].time <= time { low = mid + 1 } else { high = mid }
        }
        return low > 0 ? samples[low - 1].proximity : nil
    }

    /// The pen's speed (mm/s) around `time`: over ±10 ms, or as much of it as the proximity has.
    package func speed(at time: UInt64, proximity: Int) -> Double? {
        let t = Double(time)
        for half in [10_000.0, 5_000.0, 2_500.0] {
            if let a = position(at: t - half, proximity: proximity), let b = position(at: t + half, proximity: proximity) {
                let d = b - a
                return (d * d).sum().squareRoot() / (2 * half / 1e6)
            }
        }
        return nil
    }
}
