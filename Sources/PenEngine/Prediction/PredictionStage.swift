import PenKit

/// Runs one predictor over a live sample stream and keeps the contracts every prediction
/// obeys: samples at the measured report interval and a last one exactly at the horizon,
/// never past a predicted lift, marked predicted, aimed at the real pen when the input is
/// smoothed, and a fresh start after a gap, a new proximity or time going backwards. It also
/// says how sure it is (`expectedError`, `liftProbability`). Buffers are reused frame to frame.
public struct PredictionStage<P: Predictor>: Sendable {
    public private(set) var predictor: P
    /// A second copy of the predictor fed the inverted raw path, for `.blend` only.
    private var invertedPredictor: P
    public let configuration: PredictionConfiguration
    /// The predicted samples for the newest real sample; replaced by the next one.
    public private(set) var predictions: [PredictionSample] = []
    /// Expected distance (mm) between the last predicted sample and the real pen at its time,
    /// for the newest refresh: about 68 % of realised errors fall within it. Nil with nothing predicted.
    public private(set) var expectedError: Double?
    /// Probability that the pen lifts within the newest refresh's horizon; nil while hovering.
    public private(set) var liftProbability: Double?
    /// True when the newest refresh stopped before the horizon at a predicted lift.
    public private(set) var cutByLift = false
    /// The newest sample as handed to the predictor.
    private var newest: PredictionSample?
    /// The newest real position as best known: the raw one recovered from smoothed input
    /// (estimated with `.estimate`, inverted otherwise).
    public private(set) var reference: PredictionSample?
    private var interval = ReportInterval()
    private var inverse: SmoothingInverse
    /// Estimates the raw path instead of inverting it, for `.estimate`.
    private var recovery: SmoothingRecovery
    /// Each pen's learned expected error, lift spread and residual correction.
    private(set) var calibrations: PenCalibrations<ToolKey>
    /// Damps how much the predicted displacement shakes from frame to frame.
    private var damping: OutputDamping
    /// `predictions` as the engine's samples (PredictionStage+Frames), reused frame to frame.
    var frameSamples: [Sample] = []

    public init(predictor: P, configuration: PredictionConfiguration = .standard()) {
        self.predictor = predictor
        invertedPredictor = predictor
        self.configuration = configuration
        inverse = SmoothingInverse(window: configuration.inputSmoothing)
        recovery = SmoothingRecovery(window: configuration.inputSmoothing, jerkNoise: configuration.estimationJerkNoise)
        damping = OutputDamping(minCutoffHz: configuration.dampingMinCutoffHz,
                                betaHzPerMMPerSecond: configuration.dampingBetaHzPerMMPerSecond)
        calibrations = PenCalibrations(correctionMemory: configuration.correctionMemorySeconds,
                                       correctionShrinkCount: configuration.correctionShrinkCount)
        // Enough for the cap at the shortest interval ReportInterval admits, plus the horizon's own.
        predictions.reserveCapacity(Int(PredictionConfiguration.horizonCapSeconds / ReportInterval.minimum) + 2)
        frameSamples.reserveCapacity(predictions.capacity)
    }

    /// The measured report interval (s), once two samples have arrived.
    public var reportInterval: Double? { interval.value }

    /// Forgets what `event` makes stale, in every part of the stage; what was learned about
    /// each pen stays (`.proximity` of a pen makes its record current).
    public mutating func reset(_ event: PredictionReset) {
        predictor.reset(for: event)
        invertedPredictor.reset(for: event)
        interval.reset(for: event)
        inverse.reset(for: event)
        recovery.reset(for: event)
        damping.reset(for: event)
        calibrations.reset(for: event)
        guard event.startsAfresh else { return }
        newest = nil
        reference = nil
        predictions.removeAll(keepingCapacity: true)
        expectedError = nil
        liftProbability = nil
        cutByLift = false
    }

    /// Takes a real sample and refreshes `predictions` for it: the frame's own predictions, at
    /// `horizon` (s; the configured one unless given), which the stage learns from.
    public mutating func add(_ sample: PredictionSample, horizon: Double? = nil) {
        receive(sample)
        refreshPredictions(horizon: horizon ?? configuration.horizonSeconds, primary: true)
    }

    /// Takes a real sample without predicting.
    public mutating func receive(_ sample: PredictionSample) {
        var step = 0.0
        if let previous = newest {
            if sample.time <= previous.time {
                reset(.timeWentBackwards)
            } else if sample.time - previous.time > configuration.gapResetMicros {
                reset(.gap)
            } else {
                if sample.touching != previous.touching { reset(.contactChange) }
                interval.add(Double(sample.time - previous.time) * 1e-6)
            }
            // Evenly spaced, as the reports are (their timestamps carry USB polling jitter).
            step = interval.value ?? (sample.time > previous.time ? Double(sample.time - previous.time) * 1e-6 : 0)
        }
        var real = sample
        real.predicted = false
        real.smoothingWindow = 1
        real.smoothedSamples = 1
        var raw = real
        let smoothed = SIMD2(sample.x, sample.y)
        var position = inverse.raw(from: smoothed)
        if configuration.compensation == .estimate { position = recovery.raw(from: smoothed, step: step) }
        raw.x = position[0]
        raw.y = position[1]
        reference = raw
        let rawPen = SIMD3(raw.x, raw.y, raw.pressure)
        calibrations.correction.observe(time: raw.time, real: rawPen)
        if sample.touching {
            calibrations.contact.observe(time: raw.time, real: rawPen)
        } else {
            calibrations.hover.observe(time: raw.time, real: rawPen)
        }
        switch configuration.compensation {
        case .none: break
        case .invert, .estimate: real = raw
        case .model, .blend:
            real.smoothingWindow = UInt8(inverse.window)
            real.smoothedSamples = UInt8(inverse.distinct)
        }
        if configuration.compensation == .blend { invertedPredictor.update(raw) }
        newest = real
        predictor.update(real)
    }

    /// The horizon (s) this frame will predict: capped, and shortened while hovering.
    public func effectiveHorizon(_ requested: Double) -> Double {
        guard let newest else { return 0 }
        var horizon = clamp(requested.isFinite ? requested : 0, 0, PredictionConfiguration.horizonCapSeconds)
        if !newest.touching { horizon *= configuration.hoverHorizonScale }
        return horizon
    }

    /// Fills `predictions`: one sample per report interval and the last exactly at the
    /// horizon, unless a predicted lift stops them first. `primary`: these are the frame's own
    /// predictions, whose tips the calibration, the residual correction and the damping learn
    /// from once per frame; a client's other horizon (`primary` false) only reads what they
    /// learned. Said by the caller, never inferred from the horizon's value: a client asking
    /// for exactly the configured horizon would otherwise teach the stage the frame twice.
    public mutating func refreshPredictions(horizon requested: Double, primary: Bool) {
        predictions.removeAll(keepingCapacity: true)
        expectedError = nil
        liftProbability = nil
        cutByLift = false
        guard let newest, let raw = reference else { return }
        // Where predictions start: the raw position when compensating, else the path as received.
        let reference = configuration.compensation == .none ? newest : raw
        let horizon = effectiveHorizon(requested)
        guard horizon > 0 else { return }
        // A predictor's confidence shortens how far the samples travel, not how far ahead they lie.
        let confidence = clamp(predictor.confidence(forHorizon: horizon), 0, 1)
        var lastForce = reference.pressure
        var standingStill = false
        var previousDT = 0.0
        var k = 1
        while true {
            var dt = horizon
            // Samples closer than a tenth of an interval to the horizon's own would only crowd it.
            if let step = interval.value, Double(k) * step < horizon - PredictionConstants.horizonCrowding * step {
                dt = Double(k) * step
            }
            var sample: PredictionSample
            (sample, standingStill) = extrapolated(by: dt, confidence: confidence, from: reference)
            lastForce = sample.pressure
            if reference.touching && sample.pressure < configuration.liftPressure {
                cutByLift = true
                appendLastBeforeLift(between: previousDT, and: dt, confidence: confidence, from: reference)
                break
            }
            sample.time = reference.time.saturatingAdd(UInt64(saturatingMicroseconds: dt))
            predictions.append(sample)
            if dt >= horizon { break }
            previousDT = dt
            k += 1
        }
        // A predictor that knows too little to predict has forgotten the motion: so does the damping.
        if standingStill { damping.reset() }
        // This pen's learned share of the travel (ResidualCorrection), before the damping smooths it.
        // (A horizon under a microsecond puts the tip at the sample's own time: nothing to share out.)
        if reference.touching && !standingStill && calibrations.correction.isEnabled, let last = predictions.last,
           last.time > reference.time {
            let ahead = Double(last.time - reference.time) * 1e-6
            let correction = calibrations.correction.correction(
                displacement: SIMD2(last.x - reference.x, last.y - reference.y), origin: SIMD2(reference.x, reference.y),
                record: primary && !cutByLift ? last.time : nil)
            for k in predictions.indices {
                let share = Double(predictions[k].time - reference.time) * 1e-6 / ahead
                predictions[k].x += correction[0] * share
                predictions[k].y += correction[1] * share
            }
        }
        if damping.isEnabled && !standingStill {
            if primary, let last = predictions.last {
                damping.update(displacement: SIMD2(last.x - reference.x, last.y - reference.y),
                               at: reference.time, ahead: Double(last.time - reference.time) * 1e-6)
            }
            let correction = damping.correctionPerSecond
            for k in predictions.indices {
                let ahead = Double(predictions[k].time - reference.time) * 1e-6
                predictions[k].x += correction[0] * ahead
                predictions[k].y += correction[1] * ahead
            }
        }
        let tip = predictions.last ?? reference
        let travel = distance(tip.x - reference.x, tip.y - reference.y)
        if reference.touching {
            liftProbability = calibrations.contact.liftProbability(
                predictedForce: lastForce, threshold: configuration.liftPressure, horizon: horizon)
            expectedError = Self.learn(from: primary ? predictions.last : nil, made: reference, travel: travel,
                                       in: &calibrations.contact)
        } else {
            expectedError = Self.learn(from: primary ? predictions.last : nil, made: reference, travel: travel,
                                       in: &calibrations.hover)
        }
    }

    /// The expected error for a prediction that travelled `travel` mm, after keeping `last`
    /// (the configured horizon's last predicted sample) to score once the pen reaches its time.
    private static func learn(from last: PredictionSample?, made reference: PredictionSample, travel: Double,
                              in calibration: inout PredictionCalibration) -> Double {
        if let last {
            calibration.record(target: last.time, x: last.x, y: last.y, pressure: last.pressure,
                               travel: travel, horizon: Double(last.time - reference.time) * 1e-6)
        }
        return calibration.expectedError(travel: travel)
    }

    /// Ends the predictions where the force is predicted to cross the lift threshold, between the
    /// last sample kept (or the reference, at 0) and the first one below it. Stopping one report
    /// interval early instead would leave a client nothing ahead of the newest sample when the
    /// lift is due within one interval: with smoothing compensated, that sample lags the real pen
    /// by about 1.5 intervals, the worst error a stroke's end showed. The crossing is found by
    /// bisection on the predictor's own force (predictors clamp force at 0, so interpolating the
    /// two samples would put it late), to 1/4096 of the step.
    private mutating func appendLastBeforeLift(between previous: Double, and below: Double,
                                               confidence: Double, from reference: PredictionSample) {
        let threshold = configuration.liftPressure
        var low = previous, high = below
        for _ in 0..<PredictionConstants.liftBisectionSteps {
            let middle = (low + high) / 2
            if extrapolated(by: middle, confidence: confidence, from: reference).sample.pressure < threshold {
                high = middle
            } else {
                low = middle
            }
        }
        // At least a microsecond ahead: a lift due now still leaves the pen's position now.
        let dt = max(low, 1e-6)
        var last = extrapolated(by: dt, confidence: confidence, from: reference).sample
        last.pressure = max(last.pressure, threshold)
        last.time = reference.time.saturatingAdd(max(1, UInt64(saturatingMicroseconds: dt)))
        predictions.append(last)
    }

    /// The predictor's guess `dt` ahead, its travel scaled by `confidence`; the real position
    /// held still (`standingStill`) when the predictor has too little history to say anything.
    private func extrapolated(by dt: Double, confidence: Double,
                              from reference: PredictionSample) -> (sample: PredictionSample, standingStill: Bool) {
        guard var sample = predictor.extrapolate(by: dt) else {
            var still = reference
            still.predicted = true
            return (still, true)
        }
        if configuration.compensation == .blend, let other = invertedPredictor.extrapolate(by: dt) {
            let w = configuration.blendWeight
            sample.x += (other.x - sample.x) * w
            sample.y += (other.y - sample.y) * w
        }
        if confidence < 1 {
            sample.x = reference.x + (sample.x - reference.x) * confidence
            sample.y = reference.y + (sample.y - reference.y) * confidence
        }
        sample.touching = reference.touching
        sample.predicted = true
        sample.smoothingWindow = 1
        sample.smoothedSamples = 1
        return (sample, false)
    }
}

/// The device's report interval, smoothed so one late or early report barely moves it.
struct ReportInterval: Sendable {
    /// Shortest interval believed (s): faster reports would make the buffer huge.
    static let minimum = PredictionConstants.shortestReportInterval
    private(set) var value: Double?

    mutating func reset() { value = nil }

    mutating func add(_ seconds: Double) {
        let bounded = max(seconds, Self.minimum)
        if let value { self.value = value + (bounded - value) * PredictionConstants.reportIntervalSmoothing } else { value = bounded }
    }
}
