/// What a lead costs where it costs most, at pen-up: the prediction carries on where the pen
/// stops, so in a stroke's last moments the virtual pen can run past where the real one lifts.
/// For each stroke of the real pen (a contact run of at least 3 samples that moved over its last
/// `headingSpan`), how far the path's contact samples in the stroke's last `window` go past the
/// real pen's lift position, along the stroke's final heading (0 when none does); and how far
/// the path's last contact sample (the ink's end) is from the real pen's last report in contact.
package struct LiftOvershoot: Sendable {
    package static let window: UInt64 = 30_000, headingSpan: UInt64 = 20_000

    package var strokes = 0
    /// The largest and the mean overshoot over the strokes (mm).
    package var largest = 0.0, mean = 0.0
    /// The largest distance between the end of the path's ink and the real pen's last report in contact (mm).
    package var liftError = 0.0

    package init(real: PenTrack, path: PenTrack) {
        var total = 0.0
        let ends = Self.strokeEnds(real.samples)
        for end in ends {
            let last = real.samples[end]
            guard let earlier = real.position(at: Double(last.time) - Double(Self.headingSpan), proximity: last.proximity) else { continue }
            let move = last.position - earlier
            let length = (move * move).sum().squareRoot()
            guard length > 0.1 else { continue }
            let heading = move / length
            var past = 0.0
            for s in path.samples where s.touching && s.proximity == last.proximity
                && s.time <= last.time && s.time + Self.window >= last.time {
                past = max(past, ((s.position - last.position) * heading).sum())
            }
            strokes += 1
            total += past
            largest = max(largest, past)
            // The ink's end: the path's last contact sample up to the real pen's tip-up report,
            // against the real pen's last report in contact (the tip-up report's position is not
            // in contact: ink to it would be a tail the pen never drew).
            if end + 1 < real.samples.count, real.samples[end + 1].proximity == last.proximity,
               let inkEnd = path.samples.lastIndex(where: { $0.touching && $0.proximity == last.proximity
                   && $0.time <= real.samples[end + 1].time && $0.time + Self.window >= last.time }) {
                let d = path.samples[inkEnd].position - last.position
                liftError = max(liftError, (d * d).sum().squareRoot())
            }
        }
        mean = strokes > 0 ? total / Double(strokes) : 0
    }

    /// The index of each contact run's last sample, for runs of at least 3 samples.
    static func strokeEnds(_ samples: [PenTrack.Sample]) -> [Int] {
        var ends: [Int] = []
        var run = 0
        for (i, s) in samples.enumerated() {
            run = s.touching ? run + 1 : 0
            let nextTouches = i + 1 < samples.count && samples[i + 1].touching && samples[i + 1].proximity == s.proximity
            if s.touching && !nextTouches && run >= 3 { ends.append(i) }
        }
        return ends
    }
}
