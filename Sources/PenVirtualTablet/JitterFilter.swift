/// The virtual tablet's jitter filter: an exponential smoother whose cutoff rises with the pen's
/// speed, after the 1€ filter (Casiez, Roussel and Vogel, CHI 2012), counted in reports rather
/// than seconds, with the cutoff rising with the square of the speed.
///
/// Why adaptive: a pen at rest or creeping shows the sensor's noise, which a low cutoff hides; a
/// pen in motion needs its position now, which a high cutoff gives. libinput's 4-sample mean
/// treats both alike and so lags 1.5 reports (7.5 ms at 200 Hz) at every speed.
///
/// Why the square of the speed: with 1€'s linear rise, a cutoff low enough at rest opens too soon
/// (slow strokes stay noisy), and one that stays low longer lags fast strokes; the square keeps it
/// low through slow motion and opens it fully for fast motion (docs/virtual-tablet.md has the sweep).
/// The speed is the mean step over the last `speedReach` reports, steadier than one report's step.
///
/// Why reports, not seconds: a tablet reports at a fixed rate, and the event times a process sees
/// jitter with scheduling (and more under emulation). A filter driven by report count gives the
/// same output for the same reports whatever the timing, so `penkit bench virtual-tablet` predicts
/// exactly what penkitd writes. For a tablet at `r` Hz a cutoff of `c` per report is `c·r` Hz.
package struct JitterFilter: Sendable {
    package struct Parameters: Sendable, Hashable {
        /// Cutoff (cycles per report) for a pen at rest: how hard noise is smoothed when nothing moves.
        package var minimumCutoff: Double
        /// How fast the cutoff rises: cycles per report per (mm/report)².
        package var speedCoefficient: Double
        /// Reports the speed is measured over (1…`JitterFilter.longestReach`).
        package var speedReach: Int

        package init(minimumCutoff: Double, speedCoefficient: Double, speedReach: Int) {
            self.minimumCutoff = minimumCutoff
            self.speedCoefficient = speedCoefficient
            self.speedReach = min(max(speedReach, 1), JitterFilter.longestReach)
        }

        /// Chosen on the repository's 8 recordings (in-sample; docs/virtual-tablet.md): at 200 Hz a pen
        /// at rest is smoothed with a 0.6 Hz cutoff; one at 100 mm/s (0.5 mm/report) passes at 0.63
        /// cycles per report, a quarter of a report (1.3 ms) behind.
        package static let standard = Parameters(minimumCutoff: 0.003, speedCoefficient: 2.5, speedReach: 4)
    }

    package static let longestReach = 8

    package let parameters: Parameters
    private var position: SIMD2<Double>?
    /// The last `speedReach + 1` raw positions, oldest first, in a fixed buffer (no allocation per report).
    private var recent = (SIMD2<Double>.zero, SIMD2<Double>.zero, SIMD2<Double>.zero, SIMD2<Double>.zero,
                          SIMD2<Double>.zero, SIMD2<Double>.zero, SIMD2<Double>.zero, SIMD2<Double>.zero,
                          SIMD2<Double>.zero)
    private var held = 0
    private var newest = 0

    package init(parameters: Parameters = .standard) {
        self.parameters = parameters
    }

    /// Forgets the pen: the next position passes unfiltered (a new proximity says nothing of the last).
    package mutating func reset() {
        position = nil
        held = 0
    }

    /// The filtered position for the next report's raw position (mm).
    package mutating func filter(_ raw: SIMD2<Double>) -> SIMD2<Double> {
        remember(raw)
        guard let previous = position else {
            position = raw
            return raw
        }
        let speed = meanStep()
        let cutoff = parameters.minimumCutoff + parameters.speedCoefficient * speed * speed
        let next = previous + Self.smoothing(cutoff: cutoff) * (raw - previous)
        position = next
        return next
    }

    /// The exponential smoothing factor of a first-order low-pass at `cutoff` cycles per report.
    static func smoothing(cutoff: Double) -> Double {
        let tau = 1 / (2 * Double.pi * cutoff)
        return 1 / (1 + tau)
    }

    private mutating func remember(_ raw: SIMD2<Double>) {
        newest = (newest + 1) % (Self.longestReach + 1)
        withUnsafeMutableBytes(of: &recent) { $0.storeBytes(of: raw, toByteOffset: newest * MemoryLayout<SIMD2<Double>>.stride, as: SIMD2<Double>.self) }
        held = min(held + 1, parameters.speedReach + 1)
    }

    /// The mean distance per report between the oldest and the newest remembered positions (mm/report).
    private func meanStep() -> Double {
        guard held > 1 else { return 0 }
        let count = Self.longestReach + 1
        let oldest = (newest - (held - 1) + count) % count
        let stride = MemoryLayout<SIMD2<Double>>.stride
        let (a, b) = withUnsafeBytes(of: recent) {
            ($0.load(fromByteOffset: oldest * stride, as: SIMD2<Double>.self),
             $0.load(fromByteOffset: newest * stride, as: SIMD2<Double>.self))
        }
        let d = (b - a) / Double(held - 1)
        return (d * d).sum().squareRoot()
    }
}
