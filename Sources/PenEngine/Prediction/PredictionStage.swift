/// What the live path asks of prediction, validated once here.
public struct PredictionConfiguration: Sendable, Hashable {
    /// The longest horizon any frame may predict: beyond this, predictions mislead more than help.
    public static let horizonCap = 0.032
    /// Seconds ahead to predict on each frame (capped at `horizonCap`).
    public private(set) var horizon: Double
    /// An input gap longer than this (s) starts the predictor afresh, as Chromium does.
    public private(set) var gapReset: Double
    /// A predicted force below this while touching is a predicted lift: nothing is predicted past it.
    public private(set) var liftPressure: Double
    /// Share of the horizon predicted while hovering, where motion is less purposeful.
    public private(set) var hoverHorizonScale: Double

    public init(horizon: Double = 0.016, gapReset: Double = 0.020, liftPressure: Double = 0.01,
                hoverHorizonScale: Double = 0.5) {
        self.horizon = clamp(horizon.isFinite ? horizon : 0, 0, Self.horizonCap)
        // Out-of-range values fall back to sane ones rather than trapping on the hot path.
        self.gapReset = gapReset.isFinite && gapReset > 0 ? min(gapReset, 10) : 0.020
        self.liftPressure = liftPressure.isFinite ? liftPressure : 0.01
        self.hoverHorizonScale = hoverHorizonScale.isFinite ? clamp(hoverHorizonScale, 0, 1) : 0.5
    }
}

/// Runs one predictor over a live sample stream and keeps the contracts every prediction
/// obeys: samples spaced at the measured report interval, up to the horizon, never past a
/// predicted lift, marked predicted, and a fresh start after a gap, a contact change or
/// time going backwards. The predictions buffer is reused from frame to frame.
public struct PredictionStage<P: Predictor>: Sendable {
    public private(set) var predictor: P
    public var configuration: PredictionConfiguration
    /// The predicted samples for the newest real sample; replaced by the next one.
    public private(set) var predictions: [PredictionSample] = []
    private var newest: PredictionSample?
    private var interval = ReportInterval()

    public init(predictor: P, configuration: PredictionConfiguration = .init()) {
        self.predictor = predictor
        self.configuration = configuration
        // Enough for the cap at the shortest interval ReportInterval admits.
        predictions.reserveCapacity(Int(PredictionConfiguration.horizonCap / ReportInterval.minimum) + 2)
    }

    /// The measured report interval (s), once two samples have arrived.
    public var reportInterval: Double? { interval.value }

    public mutating func reset() {
        predictor.reset()
        interval.reset()
        newest = nil
        predictions.removeAll(keepingCapacity: true)
    }

    /// Takes a real sample and refreshes `predictions` for it.
    public mutating func add(_ sample: PredictionSample, horizon: Double? = nil) {
        receive(sample)
        refreshPredictions(horizon: horizon ?? configuration.horizon)
    }

    /// Takes a real sample without predicting (for callers that query `tip` instead).
    public mutating func receive(_ sample: PredictionSample) {
        if let previous = newest {
            let gapMicros = UInt64(configuration.gapReset * 1e6)
            if sample.time <= previous.time || sample.time - previous.time > gapMicros
                || sample.touching != previous.touching {
                predictor.reset()
                interval.reset()
            } else {
                interval.add(Double(sample.time - previous.time) * 1e-6)
            }
        }
        var real = sample
        real.predicted = false
        newest = real
        predictor.update(real)
    }

    /// The horizon (s) this frame will actually predict: capped, shortened while hovering,
    /// and shortened by the predictor's confidence in whole report intervals.
    public func effectiveHorizon(_ requested: Double) -> Double {
        guard let newest, let step = interval.value else { return 0 }
        var horizon = clamp(requested, 0, PredictionConfiguration.horizonCap)
        if !newest.touching { horizon *= configuration.hoverHorizonScale }
        let confidence = clamp(predictor.confidence(forHorizon: horizon), 0, 1)
        if confidence >= 1 { return horizon }
        // Round up to whole intervals, as ink-stroke-modeler does, but never past the request.
        return min(horizon, (confidence * horizon / step).rounded(.up) * step)
    }

    public mutating func refreshPredictions(horizon requested: Double) {
        predictions.removeAll(keepingCapacity: true)
        guard let newest, let step = interval.value else { return }
        let horizon = effectiveHorizon(requested)
        var k = 1
        while Double(k) * step <= horizon + 1e-9 {
            guard let sample = predicted(after: Double(k) * step, from: newest) else { break }
            predictions.append(sample)
            k += 1
        }
    }

    /// The predicted sample at exactly `requested` seconds ahead (after confidence and lift),
    /// the tip a renderer would draw: what benchmarks compare with the real trajectory.
    /// Returns the newest real sample when nothing can be predicted.
    public func tip(horizon requested: Double) -> PredictionSample? {
        guard let newest else { return nil }
        guard let step = interval.value else { return newest }
        let horizon = effectiveHorizon(requested)
        var tip = newest
        var t = step
        // Walk at the report interval so a lift inside the horizon stops the tip there.
        while t < horizon - 1e-9 {
            guard let sample = predicted(after: t, from: newest) else { return tip }
            tip = sample
            t += step
        }
        if horizon > 0, let sample = predicted(after: horizon, from: newest) { tip = sample }
        return tip
    }

    private func predicted(after dt: Double, from newest: PredictionSample) -> PredictionSample? {
        guard var sample = predictor.extrapolate(by: dt) else { return nil }
        if newest.touching && sample.pressure < configuration.liftPressure { return nil }
        sample.time = newest.time + UInt64((dt * 1e6).rounded())
        sample.touching = newest.touching
        sample.predicted = true
        return sample
    }
}

/// The device's report interval, smoothed so one late or early report barely moves it.
struct ReportInterval: Sendable {
    /// Shortest interval believed (s): faster reports would make the buffer huge.
    static let minimum = 0.001
    private(set) var value: Double?

    mutating func reset() { value = nil }

    mutating func add(_ seconds: Double) {
        let bounded = max(seconds, Self.minimum)
        if let value { self.value = value + (bounded - value) * 0.25 } else { value = bounded }
    }
}
