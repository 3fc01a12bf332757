#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A 1€ filter (Casiez et al.) on the predicted displacement: the vector from the newest real
/// position to the last predicted sample. A fit short enough to follow changes of speed
/// without lag also follows the pen's and the sensor's noise, and extrapolation multiplies
/// that noise by the horizon: predictions that shake from frame to frame (jitter). The filter
/// damps small, fast changes of the displacement heavily and lets large ones through (its
/// cutoff rises with how fast the displacement changes), so a real change of speed or
/// direction is followed at once while a steady stroke's predictions stay still.
///
/// It filters the displacement per second ahead, so a horizon that changes (hover predicts half
/// as far as contact) is not taken for a change of motion; the cutoff rises with the change of
/// the displacement itself. Only the displacement is filtered, never the real position it
/// starts from. The correction is spread over the predicted samples in proportion to how far
/// ahead each lies, so the first ones move least. It is learned at the configured horizon only;
/// other horizons asked for by clients get the same correction per second ahead.
struct OutputDamping: Sendable {
    let minCutoffHz: Double
    let betaHzPerMMPerSecond: Double
    /// The damped displacement per second ahead (mm/s).
    private var damped: SIMD2<Double>?
    private var time: UInt64 = 0
    /// The newest correction (mm) per second ahead.
    private(set) var correctionPerSecond = SIMD2<Double>(0, 0)

    init(minCutoffHz: Double, betaHzPerMMPerSecond: Double) {
        self.minCutoffHz = minCutoffHz
        self.betaHzPerMMPerSecond = betaHzPerMMPerSecond
    }

    var isEnabled: Bool { minCutoffHz > 0 }

    mutating func reset() {
        damped = nil
        correctionPerSecond = SIMD2(0, 0)
    }

    /// Filters `displacement`, predicted `ahead` seconds after the real sample at `time`, and
    /// keeps the correction. A second call for the same sample keeps the first correction.
    mutating func update(displacement: SIMD2<Double>, at time: UInt64, ahead: Double) {
        guard isEnabled, ahead > 0 else { return }
        let perSecond = displacement / ahead
        guard let previous = damped else {
            damped = perSecond
            self.time = time
            correctionPerSecond = SIMD2(0, 0)
            return
        }
        guard time > self.time else { return }
        let dt = Double(time - self.time) * 1e-6
        let change = perSecond - previous
        let rate = (change * change).sum().squareRoot() * ahead / dt
        let cutoff = minCutoffHz + betaHzPerMMPerSecond * rate
        let alpha = 1 / (1 + 1 / (2 * Double.pi * cutoff * dt))
        let next = previous + change * alpha
        damped = next
        self.time = time
        correctionPerSecond = next - perSecond
    }
}
