import PenEngine
import PenInput
import PenKit

/// The real path of one stroke, for asking where the pen really was at any time.
package struct Trajectory: Sendable {
    package let samples: [PredictionSample]

    /// `samples` in increasing time order (equal times keep the later sample).
    package init(_ samples: [PredictionSample]) {
        var cleaned: [PredictionSample] = []
        cleaned.reserveCapacity(samples.count)
        for sample in samples {
            if let last = cleaned.last, sample.time <= last.time {
                if sample.time == last.time { cleaned[cleaned.count - 1] = sample }
                continue
            }
            cleaned.append(sample)
        }
        self.samples = cleaned
    }

    package var startTime: UInt64 { samples.first?.time ?? 0 }
    package var endTime: UInt64 { samples.last?.time ?? 0 }

    /// Index of the last sample at or before `time` (0 if before the start).
    package func index(atOrBefore time: UInt64) -> Int {
        var low = 0, high = samples.count - 1
        guard high >= 0, time >= samples[0].time else { return 0 }
        while low < high {
            let mid = (low + high + 1) / 2
            if samples[mid].time <= time { low = mid } else { high = mid - 1 }
        }
        return low
    }

    /// Position and pressure linearly interpolated at `time`, clamped to the stroke's ends
    /// (after the lift the ink stays where the pen left).
    package func interpolated(at time: UInt64) -> PredictionSample {
        guard let first = samples.first, let last = samples.last else {
            return PredictionSample(time: time, x: 0, y: 0)
        }
        if time <= first.time { return first }
        if time >= last.time { return last }
        let i = index(atOrBefore: time)
        let a = samples[i], b = samples[i + 1]
        let f = Double(time - a.time) / Double(b.time - a.time)
        var result = a
        result.time = time
        result.x = a.x + (b.x - a.x) * f
        result.y = a.y + (b.y - a.y) * f
        result.pressure = a.pressure + (b.pressure - a.pressure) * f
        return result
    }

    /// Path length (mm) travelled in (`time` − `span`, `time`].
    package func pathLength(endingAt index: Int, span: UInt64) -> Double {
        var length = 0.0
        var i = index
        let limit = samples[index].time > span ? samples[index].time - span : 0
        while i > 0 && samples[i - 1].time >= limit {
            length += distance(samples[i].x - samples[i - 1].x, samples[i].y - samples[i - 1].y)
            i -= 1
        }
        return length
    }
}
