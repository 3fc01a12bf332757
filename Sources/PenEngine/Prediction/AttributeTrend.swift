/// Extrapolates force and orientation along their recent trend. Position gets each
/// predictor's own model; these change slowly and are carried along linearly.
package enum AttributeTrend {
    /// Moves pressure, azimuth and altitude of `result` from `newest` along the slope between
    /// `reference` and `newest`, scaled by `gain` (0 holds the newest values).
    package static func extrapolate(_ result: inout PredictionSample, newest: PredictionSample,
                            reference: PredictionSample?, by dt: Double, gain: Double = 1) {
        result.pressure = newest.pressure
        result.azimuth = newest.azimuth
        result.altitude = newest.altitude
        guard let reference, newest.time > reference.time, gain != 0 else { return }
        let span = Double(newest.time - reference.time) * 1e-6
        let k = gain * dt / span
        result.pressure = clamp(newest.pressure + (newest.pressure - reference.pressure) * k, 0, 1)
        result.altitude = clamp(newest.altitude + (newest.altitude - reference.altitude) * k, 0, .pi / 2)
        var turn = newest.azimuth - reference.azimuth
        if turn > .pi { turn -= 2 * .pi } else if turn < -.pi { turn += 2 * .pi }
        var azimuth = newest.azimuth + turn * k
        if azimuth < 0 { azimuth += 2 * .pi } else if azimuth >= 2 * .pi { azimuth -= 2 * .pi }
        result.azimuth = azimuth
    }

    /// How far back (µs) the trend reaches: every predictor's force and angles follow the last 8 ms.
    static let spanMicros = PredictionConstants.attributeTrendSpanMicros

    /// The newest sample at least `spanMicros` older than the newest, or the oldest held,
    /// among those with the newest's contact state (force jumps at pen-down).
    package static func reference(in history: SampleHistory) -> PredictionSample? {
        guard history.count >= 2 else { return nil }
        let newest = history[fromEnd: 0]
        var oldest: PredictionSample?
        for i in 1..<history.count {
            let sample = history[fromEnd: i]
            if sample.touching != newest.touching { break }
            if newest.time - sample.time >= Self.spanMicros { return sample }
            oldest = sample
        }
        return oldest
    }
}

@inline(__always)
package func clamp(_ value: Double, _ low: Double, _ high: Double) -> Double {
    min(max(value, low), high)
}

/// Euclidean length of (dx, dy): a plain square root of the sum of squares, not hypot. The one
/// definition the engine and the evaluation share, so evaluation figures are the engine's own.
@inline(__always)
package func distance(_ dx: Double, _ dy: Double) -> Double { (dx * dx + dy * dy).squareRoot() }
