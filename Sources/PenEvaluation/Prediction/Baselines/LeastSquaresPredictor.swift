import PenEngine

/// Quadratic least squares over the last few samples (Chromium's and Android's lsq2).
/// Exact for constant acceleration; follows noise when its window is short.
package struct LeastSquaresPredictor: Predictor {
    private var history = SampleHistory(capacity: 8)
    package let sampleCount: Int

    package init(sampleCount: Int = 4) {
        precondition(sampleCount >= 3 && sampleCount <= 8, "lsq2 needs 3...8 samples")
        self.sampleCount = sampleCount
    }

    private var fit: PolynomialFit?

    package var name: String { "lsq2" }

    package mutating func reset() {
        history.removeAll()
        fit = nil
    }

    package mutating func update(_ sample: PredictionSample) {
        history.append(sample)
        fit = PolynomialFit.fit(history, maxSamples: sampleCount, window: .infinity, degree: 2)
    }

    package func extrapolate(by dt: Double) -> PredictionSample? {
        guard let fit, let newest = history.last else { return nil }
        var result = newest
        result.x = fit.x[0] + fit.x[1] * dt + 0.5 * fit.x[2] * dt * dt
        result.y = fit.y[0] + fit.y[1] * dt + 0.5 * fit.y[2] * dt * dt
        let reference = history[fromEnd: min(history.count, sampleCount) - 1]
        AttributeTrend.extrapolate(&result, newest: newest, reference: reference, by: dt)
        return result
    }
}
