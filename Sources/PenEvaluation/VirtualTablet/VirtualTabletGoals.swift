/// Issue #43's goals for one recording, or for a pool of them: what apps get through penkit's
/// virtual tablet (path b) is no worse than what libinput gives them by default (path a), on every
/// figure, and does not lag. The bench's goals line and the goals test both judge with this, so
/// that they cannot disagree on what "holds" means.
///
/// - lag ≤ 1 ms (strokes of fewer than `VirtualTabletMetrics.shortestLagStroke` frames aside);
/// - RMSE, slow RMSE, and jitter at rest, in slow strokes and in hover each ≤ libinput's × 1.02
///   (2 %: below what the figures move by when a recording is cut a frame earlier or later);
/// - the pressure curve exact to 2/65534, and contact the real pen's (unless a tip threshold
///   of the user's own decides contact).
package struct VirtualTabletGoals: Sendable {
    package static let largestLagMilliseconds = 1.0
    package static let tolerance = 1.02
    package static let largestPressureError = 2.0 / 65534

    /// The goals that fail, each named with its figures; empty when all hold.
    package let failures: [String]

    package var holds: Bool { failures.isEmpty }

    package init(libinput a: VirtualTabletMetrics, virtual b: VirtualTabletMetrics, ownTipThreshold: Bool = false) {
        var failures: [String] = []
        if b.lagMilliseconds > Self.largestLagMilliseconds {
            failures.append("lag \(Self.figure(b.lagMilliseconds, 1)) ms")
        }
        let figures: [(String, Double, Double, Int)] = [
            ("rmse", b.rmse, a.rmse, 3), ("slow rmse", b.rmseSlow, a.rmseSlow, 3),
            ("rest jitter", b.jitterRest, a.jitterRest, 4), ("slow jitter", b.jitterSlow, a.jitterSlow, 4),
            ("hover jitter", b.jitterHover, a.jitterHover, 4),
        ]
        for (name, virtual, libinput, digits) in figures where virtual > libinput * Self.tolerance {
            failures.append("\(name) \(Self.figure(virtual, digits)) > libinput's \(Self.figure(libinput, digits)) × \(Self.tolerance)")
        }
        if b.pressureError > Self.largestPressureError { failures.append("pressure error \(b.pressureError)") }
        if b.contactMismatches > 0 && !ownTipThreshold { failures.append("\(b.contactMismatches) contact mismatches") }
        self.failures = failures
    }

    /// A figure to `digits` decimals, without Foundation's formatting.
    static func figure(_ value: Double, _ digits: Int) -> String {
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let scaled = (value * scale).rounded()
        let whole = Int(scaled / scale)
        var fraction = String(Int(abs(scaled) - abs(Double(whole)) * scale))
        while fraction.count < digits { fraction = "0" + fraction }
        return digits == 0 ? "\(whole)" : "\(value < 0 && whole == 0 ? "-" : "")\(whole).\(fraction)"
    }
}
