import PenEngine
import PenKit

/// How close a path's pen is to the real pen (docs/virtual-tablet.md defines each figure):
/// - lag: the shift in time that best lays the path's contact samples on the real pen's path,
///   where the pen moves at 20 mm/s or more (RMS distance, searched in 0.1 ms steps), over strokes
///   of at least `shortestLagStroke` frames: a tap's few frames are mostly a filter's start;
/// - RMSE: the distance from the real pen at the same time, over every contact sample; and the
///   same over slow contact samples alone (5–30 mm/s), where the lag figure does not look: what a
///   smoother that calms slow strokes costs them in trailing;
/// - jitter: the roughness an app draws, whatever the lag: the RMS distance of each sample from a
///   quadratic in time fitted to the 9 samples around it (±4 reports, one proximity, one contact
///   state), in three classes by the real pen's speed: at rest in contact (< 5 mm/s), slow in
///   contact (5–30 mm/s), hovering (< 30 mm/s);
/// - pressure: the largest difference between the force delivered and the configured curve at
///   the real pen's raw pressure, over contact samples at the real pen's times; and how many
///   samples' contact differs from the real pen's.
package struct VirtualTabletMetrics: Sendable {
    package static let movingSpeed = 20.0, restSpeed = 5.0, slowSpeed = 30.0
    /// Strokes (contact runs within one proximity) of fewer frames than this are left out of the
    /// lag (issue #43): over a few frames a filter is mostly starting, and one tap's lag would
    /// stand for the whole recording.
    package static let shortestLagStroke = 10

    package var lagMilliseconds = 0.0
    package var rmse = 0.0
    /// RMSE over contact samples where the real pen moves at 5–30 mm/s.
    package var rmseSlow = 0.0
    package var jitterRest = 0.0, jitterSlow = 0.0, jitterHover = 0.0
    /// All three classes pooled.
    package var jitter = 0.0
    package var pressureError = 0.0
    package var contactMismatches = 0
    package var contactSamples = 0

    /// Pools several recordings: each pair is (the real pen, the path).
    package init(pairs: [(real: PenTrack, path: PenTrack)], feel: PenFeel) {
        var moving: [(real: PenTrack, sample: PenTrack.Sample, proximity: Int)] = []
        var squared = 0.0, counted = 0, slowSquared = 0.0, slowCounted = 0
        var classes: [[Double]] = [[], [], []]
        for (real, path) in pairs {
            var realByTime: [UInt64: PenTrack.Sample] = [:]
            for s in real.samples { realByTime[s.time] = s }
            let strokeFrames = Self.strokeLengths(path.samples)
            for (i, s) in path.samples.enumerated() {
                // A path's proximity numbering can differ from the real one's (a forced proximity-out):
                // each sample is compared with the real proximity holding its time.
                guard let proximity = real.proximity(at: s.time) else { continue }
                let speed = real.speed(at: s.time, proximity: proximity)
                if let r = realByTime[s.time] {
                    if r.touching != s.touching { contactMismatches += 1 }
                    if r.touching && s.touching {
                        pressureError = max(pressureError, abs(s.pressure - feel.force(fromRaw: r.pressure)))
                    }
                }
                if s.touching {
                    contactSamples += 1
                    if let truth = real.position(at: Double(s.time), proximity: proximity) {
                        let d = s.position - truth
                        squared += (d * d).sum()
                        counted += 1
                        if let speed, speed >= Self.restSpeed, speed < Self.slowSpeed {
                            slowSquared += (d * d).sum()
                            slowCounted += 1
                        }
                    }
                    if let speed, speed >= Self.movingSpeed, strokeFrames[i] >= Self.shortestLagStroke {
                        moving.append((real, s, proximity))
                    }
                }
                guard let speed, let residual = Self.roughness(path.samples, at: i) else { continue }
                if s.touching {
                    if speed < Self.restSpeed { classes[0].append(residual) } else if speed < Self.slowSpeed { classes[1].append(residual) }
                } else if speed < Self.slowSpeed {
                    classes[2].append(residual)
                }
            }
        }
        rmse = counted > 0 ? (squared / Double(counted)).squareRoot() : 0
        rmseSlow = slowCounted > 0 ? (slowSquared / Double(slowCounted)).squareRoot() : 0
        func jitterOf(_ values: [Double]) -> Double {
            values.isEmpty ? 0 : (values.reduce(0, +) / Double(values.count)).squareRoot()
        }
        jitterRest = jitterOf(classes[0])
        jitterSlow = jitterOf(classes[1])
        jitterHover = jitterOf(classes[2])
        jitter = jitterOf(classes[0] + classes[1] + classes[2])
        lagMilliseconds = Self.lag(moving)
    }

    /// For each sample, how many frames the contact run holding it has (0 for a hover sample).
    static func strokeLengths(_ samples: [PenTrack.Sample]) -> [Int] {
        var lengths = [Int](repeating: 0, count: samples.count)
        var start = 0
        while start < samples.count {
            var end = start + 1
            while end < samples.count, samples[end].touching == samples[start].touching,
                  samples[end].proximity == samples[start].proximity { end += 1 }
            if samples[start].touching { for i in start..<end { lengths[i] = end - start } }
            start = end
        }
        return lengths
    }

    /// Reports on each side of a sample that its roughness is measured against.
    static let roughnessReach = 4

    /// The squared distance of sample `i` from the least-squares quadratic (in time, per axis)
    /// through it and its `roughnessReach` neighbours on each side; nil near a proximity's or a
    /// contact's edge.
    static func roughness(_ samples: [PenTrack.Sample], at i: Int) -> Double? {
        let reach = roughnessReach
        guard i >= reach, i + reach < samples.count else { return nil }
        let centre = samples[i]
        var sums = [Double](repeating: 0, count: 5)  // Σ t^0 … t^4
        var sx = SIMD3<Double>(0, 0, 0), sy = SIMD3<Double>(0, 0, 0)
        for j in (i - reach)...(i + reach) {
            let s = samples[j]
            guard s.proximity == centre.proximity, s.touching == centre.touching else { return nil }
            let t = (Double(s.time) - Double(centre.time)) / 1000  // ms, centred: well conditioned
            var power = 1.0
            for k in 0..<5 { sums[k] += power; power *= t }
            let basis = SIMD3<Double>(1, t, t * t)
            sx += basis * s.position.x
            sy += basis * s.position.y
        }
        // Normal equations of the quadratic; the fit's value at the centre (t = 0) is its constant term.
        let m = [[sums[0], sums[1], sums[2]], [sums[1], sums[2], sums[3]], [sums[2], sums[3], sums[4]]]
        guard let cx = solve3(m, sx), let cy = solve3(m, sy) else { return nil }
        let dx = centre.position.x - cx, dy = centre.position.y - cy
        return dx * dx + dy * dy
    }

    /// The constant term of the 3×3 system's solution (Cramer's rule); nil when singular.
    static func solve3(_ m: [[Double]], _ b: SIMD3<Double>) -> Double? {
        func det(_ a: [[Double]]) -> Double {
            a[0][0] * (a[1][1] * a[2][2] - a[1][2] * a[2][1]) - a[0][1] * (a[1][0] * a[2][2] - a[1][2] * a[2][0])
                + a[0][2] * (a[1][0] * a[2][1] - a[1][1] * a[2][0])
        }
        let d = det(m)
        guard abs(d) > 1e-12 else { return nil }
        var first = m
        for r in 0..<3 { first[r][0] = b[r] }
        return det(first) / d
    }

    /// The time shift (ms, in 0.1 ms steps from −5 to 20) minimising the RMS distance between the
    /// path's moving samples and the real pen that much earlier.
    static func lag(_ samples: [(real: PenTrack, sample: PenTrack.Sample, proximity: Int)]) -> Double {
        guard !samples.isEmpty else { return 0 }
        var best = (shift: 0.0, error: Double.infinity)
        for step in -50...200 {
            let shift = Double(step) / 10
            var squared = 0.0, counted = 0
            for (real, s, proximity) in samples {
                let t = Double(s.time) - shift * 1000
                guard let truth = real.position(at: t, proximity: proximity) else { continue }
                let d = s.position - truth
                squared += (d * d).sum()
                counted += 1
            }
            guard counted > 0 else { continue }
            let error = squared / Double(counted)
            if error < best.error { best = (shift, error) }
        }
        return best.shift
    }
}
