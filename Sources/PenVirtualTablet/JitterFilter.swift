/// The virtual tablet's jitter filter, in two stages, counted in reports rather than seconds:
///
/// 1. libinput's own smoothing without its lag: the mean of the last 4 raw positions, moved
///    forward by what a quadratic fitted to the last 24 says the mean lags behind. libinput's
///    4-sample mean halves the sensor's noise but trails the pen by 1.5 reports (7.5 ms at
///    200 Hz) at every speed; on a path that is locally a quadratic the correction takes that lag
///    away exactly.
/// 2. An exponential smoother whose cutoff rises with the square of the pen's speed, after the 1€
///    filter (Casiez, Roussel and Vogel, CHI 2012): a pen at rest or creeping shows what noise
///    stage 1 leaves (more than the mean alone: the correction carries some), which a low cutoff
///    hides; a pen in motion needs its position now, which a high cutoff gives. The square keeps
///    the cutoff low through slow motion and opens it fully for fast motion.
///
/// 3. In contact, an overshoot guard: the output never goes past where the pen has been, along its
///    travel (`Parameters.overshootGuardReach`).
///
/// Both stages start afresh when the pen enters proximity and when its contact changes (as
/// libinput's smoothing restarts): the first two reports after pass unfiltered, and the positions
/// of a hover say nothing of a stroke's. VirtualPen feeds the filter every report the tablet
/// makes, also those that leave x and y as they were: a filter that skips them moves in stairs.
///
/// Why reports, not seconds: a tablet reports at a fixed rate, and the event times a process sees
/// jitter with scheduling (and more under emulation). A filter driven by report count gives the
/// same output for the same reports whatever the timing, so `penkit bench virtual-tablet` predicts
/// exactly what penkitd writes. For a tablet at `r` Hz a cutoff of `c` per report is `c·r` Hz.
package struct JitterFilter: Sendable {
    package struct Parameters: Sendable, Hashable {
        /// Raw positions stage 1 averages (1…`JitterFilter.longestReach`; 1: stage 1 passes raw positions).
        package var meanCount: Int
        /// Raw positions the quadratic that removes the mean's lag is fitted to (1…`longestReach`).
        package var fitReach: Int
        /// Stage 2's cutoff (cycles per report) for a pen at rest: how hard noise is smoothed when nothing moves.
        package var minimumCutoff: Double
        /// How fast stage 2's cutoff rises: cycles per report per (mm/report)².
        package var speedCoefficient: Double
        /// Raw positions the speed is measured over, as a least-squares slope (1…`longestReach`).
        package var speedReach: Int

        /// The overshoot guard, in contact only: the output never goes beyond the farthest of the newest
        /// this many raw positions along the pen's direction of travel (the speed's slope), plus
        /// `overshootGuardStepAllowance` of the pen's newest step (0: no guard). Stage 1's quadratic
        /// carries the pen on where it slows to a stop (1.5 mm past a PenPartner's stop, 0.5 mm past
        /// an Intuos Pro M's): ink the pen never drew. Trailing a little there is what libinput's
        /// mean does anyway; leading is not. The guard's three numbers (4, 16, 0.5) were chosen on the
        /// repository's 15 recordings (docs/virtual-tablet.md, "Never lead the pen past where it has been").
        package var overshootGuardReach = 4
        /// How the guard comes in with speed: in proportion to (1 − minimum cutoff / cutoff) to this
        /// power, so by stage 2's own measure of motion. 16: half at 0.58 mm per report (116 mm/s at
        /// 200 Hz), nothing at rest or creeping, where the direction of travel is the noise's.
        package var overshootGuardSharpness = 16
        /// The lead the guard allows beyond the farthest raw position, in the pen's newest steps
        /// (half the displacement over its newest 2 reports, along its travel): a pen moving steadily
        /// is ahead of its newest noisy report half the time, and a guard at that report itself
        /// pulled the output back there (0.3 ms more lag on the Cintiq); a pen stopping makes short steps.
        package var overshootGuardStepAllowance = 0.5

        package init(meanCount: Int, fitReach: Int, minimumCutoff: Double, speedCoefficient: Double, speedReach: Int) {
            self.meanCount = min(max(meanCount, 1), JitterFilter.longestReach)
            self.fitReach = min(max(fitReach, 1), JitterFilter.longestReach)
            self.minimumCutoff = minimumCutoff
            self.speedCoefficient = speedCoefficient
            self.speedReach = min(max(speedReach, 1), JitterFilter.longestReach)
        }

        /// Chosen on the repository's 8 recordings, judged per recording (issue #43; docs/virtual-tablet.md
        /// has the sweeps, the per-recording figures and leave-one-model-out):
        /// - a mean of 4, libinput's: it halves the sensor's noise (a gain of √(1/4));
        /// - the quadratic over 24 reports removes that mean's lag of 1.5 reports; fitted over fewer,
        ///   its correction carries more of the noise back (over 24 stage 1 keeps 0.61 of the
        ///   noise at rest, against the mean's 0.5), over more it no longer follows a turning pen;
        /// - a cutoff of at least 0.15 cycles per report: stage 2 then trails a steadily moving pen
        ///   by at most 1/(2π·0.15) = 1.06 reports, less than libinput's mean trails it (1.5 reports),
        ///   at every speed and on every tablet, whatever its noise or report rate. This is what
        ///   carries over to pens not seen: the filter never trails more than libinput would. (The
        ///   first filter smoothed at 0.03 at rest, 5.3 reports behind: calmer, but slow strokes
        ///   trailed by more than libinput's, issue #43's complaint on pens it was not tuned on.)
        /// - 10·v² opens it with speed (v the least-squares slope over 16 reports, steady enough that
        ///   the cutoff does not itself make jitter): at 100 mm/s (0.5 mm/report at 200 Hz) it is
        ///   2.65 cycles per report, 0.03 mm behind.
        package static let standard = Parameters(meanCount: 4, fitReach: 24, minimumCutoff: 0.15, speedCoefficient: 10, speedReach: 16)
    }

    package static let longestReach = RecentPositions.capacity

    package let parameters: Parameters
    /// The raw positions since the filter last started afresh.
    private var recent = RecentPositions()
    /// Stage 2's output; nil until the first position.
    private var smoothed: SIMD2<Double>?

    package init(parameters: Parameters = .standard) {
        self.parameters = parameters
    }

    /// Forgets the pen: the next two positions pass unfiltered (a new proximity or contact says
    /// nothing of the last).
    package mutating func reset() {
        recent.removeAll()
        smoothed = nil
    }

    /// The filtered position for the next report's raw position (mm); `inContact`: whether the pen
    /// touches (the overshoot guard protects ink, and leaves hover as it was).
    package mutating func filter(_ raw: SIMD2<Double>, inContact: Bool = true) -> SIMD2<Double> {
        recent.append(raw)
        let corrected = lagFreeMean()
        // Stage 2 takes over from the third position: the first two pass as stage 1 gives them,
        // raw. That is the filter as it was measured and chosen; smoothing from the second
        // position instead moves the pooled figures by a few µm (slow RMSE 0.211 mm instead of
        // 0.209, slow jitter 0.0222 instead of 0.0224).
        guard recent.count > 2, let previous = smoothed else {
            smoothed = corrected
            return corrected
        }
        let velocity = recent.slope(over: min(parameters.speedReach, recent.count))
        let speedSquared = (velocity * velocity).sum()
        let cutoff = parameters.minimumCutoff + parameters.speedCoefficient * speedSquared
        var next = previous + Self.smoothing(cutoff: cutoff) * (corrected - previous)
        if inContact, speedSquared > 0 {
            next = guardingOvershoot(next, direction: velocity / speedSquared.squareRoot(), cutoff: cutoff)
        }
        smoothed = next
        return next
    }

    /// `position` moved back along `direction` (a unit vector, the pen's travel) to no farther than
    /// the farthest of the newest raw positions plus the allowance, in proportion to the speed.
    private func guardingOvershoot(_ position: SIMD2<Double>, direction: SIMD2<Double>, cutoff: Double) -> SIMD2<Double> {
        guard parameters.overshootGuardReach > 0 else { return position }
        var farthest = -Double.infinity
        for age in 0..<min(parameters.overshootGuardReach, recent.count) {
            farthest = max(farthest, (recent[age] * direction).sum())
        }
        if recent.count > 2 {
            farthest += parameters.overshootGuardStepAllowance * max(0, ((recent[0] - recent[2]) * direction).sum() / 2)
        }
        let beyond = (position * direction).sum() - farthest
        guard beyond > 0 else { return position }
        var weight = 1.0
        for _ in 0..<parameters.overshootGuardSharpness { weight *= 1 - parameters.minimumCutoff / cutoff }
        return position - weight * beyond * direction
    }

    /// Stage 1: the mean of the newest n positions plus q(0) − the mean of q over those n reports,
    /// q the quadratic fitted to the newest m. For q(t) = q(0) + b·t + c·t², the mean of q over
    /// t = 0, −1, …, −(n−1) is q(0) − b·(n−1)/2 + c·(n−1)(2n−1)/6. With fewer positions than
    /// the parameters ask for, it uses those there are: while 3 or fewer are held (and the fit
    /// reaches them all) the quadratic passes through them, and the result is the newest raw position.
    private func lagFreeMean() -> SIMD2<Double> {
        let n = min(parameters.meanCount, recent.count)
        let m = min(parameters.fitReach, recent.count)
        let mean = recent.mean(of: n)
        guard n > 1 else { return mean }
        let fit = recent.quadraticFit(over: m)
        let span = Double(n - 1)
        return mean + fit.velocity * (span / 2) - fit.curvature * (span * (2 * span + 1) / 6)
    }

    /// The exponential smoothing factor of a first-order low-pass at `cutoff` cycles per report.
    static func smoothing(cutoff: Double) -> Double {
        let tau = 1 / (2 * Double.pi * cutoff)
        return 1 / (1 + tau)
    }
}
