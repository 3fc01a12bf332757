import PenEngine

/// No prediction: the newest sample stands still. The lag every other predictor hides.
package struct NoPredictor: Predictor {
    private var newest: PredictionSample?
    package init() {}
    package var name: String { "none" }
    package mutating func reset() { newest = nil }
    package mutating func update(_ sample: PredictionSample) { newest = sample }
    package func extrapolate(by dt: Double) -> PredictionSample? { newest }
}

/// Constant velocity from the last two samples (Chromium's and Android's simplest).
/// Exact for uniform motion, and noisy when reports come close together.
package struct LinearPredictor: Predictor {
    private var previous: PredictionSample?
    private var newest: PredictionSample?
    package init() {}
    package var name: String { "linear" }

    package mutating func reset() {
        previous = nil
        newest = nil
    }

    package mutating func update(_ sample: PredictionSample) {
        previous = newest
        newest = sample
    }

    package func extrapolate(by dt: Double) -> PredictionSample? {
        guard let newest, let previous, newest.time > previous.time else { return nil }
        let k = dt / (Double(newest.time - previous.time) * 1e-6)
        var result = newest
        result.x = newest.x + (newest.x - previous.x) * k
        result.y = newest.y + (newest.y - previous.y) * k
        AttributeTrend.extrapolate(&result, newest: newest, reference: previous, by: dt)
        return result
    }
}
