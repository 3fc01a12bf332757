import PenKit

/// Runs one predictor over a live sample stream and keeps the contracts every prediction
/// obeys: samples at the measured report interval and a last one exactly at the horizon,
/// never past a predicted lift, marked predicted, aimed at the real pen when the input is
/// smoothed, and a fresh start after a gap, a new proximity or time going backwards. It also
/// says how sure it is (`expectedError`, `liftProbability`). Buffers are reused frame to frame.
///
/// Generic only over the model it predicts with: the product's stage is `EnginePrediction`
/// (`PenkitPrediction`, specialized, called directly); PenEvaluation's lab runs its own models.
package struct PredictionStage<Model: PredictionModel>: Sendable {
    /// The predictor and its way of undoing libinput's smoothing.
    package private(set) var model: Model
    package let configuration: PredictionConfiguration
    /// The predicted samples for the newest real sample; replaced by the next one.
    package internal(set) var predictions: [PredictionSample] = []
    /// Expected distance (mm) between the last predicted sample and the real pen at its time,
    /// for the newest refresh: about 68 % of realised errors fall within it. Nil with nothing predicted.
    package internal(set) var expectedError: Double?
    /// Probability that the pen lifts within the newest refresh's horizon; nil while hovering.
    package internal(set) var liftProbability: Double?
    /// True when the newest refresh stopped before the horizon at a predicted lift.
    package internal(set) var cutByLift = false
    /// The newest sample as handed to the predictor.
    var newest: PredictionSample?
    /// The newest real position as best known: the raw one the model recovered from smoothed input.
    package internal(set) var reference: PredictionSample?
    var interval = ReportInterval()
    /// Each pen's learned expected error, lift spread and residual correction.
    var calibrations: PenCalibrations<ToolKey>
    /// Damps how much the predicted displacement shakes from frame to frame.
    var damping: OutputDamping
    /// `predictions` as the engine's samples (PredictionStage+Frames), reused frame to frame.
    var frameSamples: [Sample] = []

    package init(model: Model, configuration: PredictionConfiguration) {
        self.model = model
        self.configuration = configuration
        damping = OutputDamping(minCutoffHz: configuration.dampingMinCutoffHz,
                                betaHzPerMMPerSecond: configuration.dampingBetaHzPerMMPerSecond)
        calibrations = PenCalibrations(correctionMemory: configuration.correctionMemorySeconds,
                                       correctionShrinkCount: configuration.correctionShrinkCount)
        // Enough for the cap at the shortest interval ReportInterval admits, plus the horizon's own.
        predictions.reserveCapacity(Int(PredictionConfiguration.horizonCapSeconds / ReportInterval.minimum) + 2)
        frameSamples.reserveCapacity(predictions.capacity)
    }

    /// The measured report interval (s), once two samples have arrived.
    package var reportInterval: Double? { interval.value }

    /// Forgets what `event` makes stale, in every part of the stage; what was learned about
    /// each pen stays (`.proximity` of a pen makes its record current).
    package mutating func reset(_ event: PredictionReset) {
        model.reset(for: event)
        interval.reset(for: event)
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
    package mutating func add(_ sample: PredictionSample, horizon: Double? = nil) {
        receive(sample)
        refreshPredictions(horizon: horizon ?? configuration.horizonSeconds, primary: true)
    }

    /// Takes a real sample without predicting: the stage forgets what a discontinuity before it
    /// makes stale, the model recovers the real pen from the smoothed input and fits it, and
    /// the stage scores earlier predictions against that real pen.
    package mutating func receive(_ sample: PredictionSample) {
        let step = forgetAcrossDiscontinuity(before: sample)
        let (fitted, raw) = model.receive(real(sample), step: step)
        reference = raw
        scorePredictions(against: raw)
        newest = fitted
    }

    /// The horizon (s) this frame will predict: capped, and shortened while hovering.
    package func effectiveHorizon(_ requested: Double) -> Double {
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
    package mutating func refreshPredictions(horizon requested: Double, primary: Bool) {
        predictions.removeAll(keepingCapacity: true)
        expectedError = nil
        liftProbability = nil
        cutByLift = false
        guard let newest, let raw = reference else { return }
        let origin = model.origin(fitted: newest, raw: raw)
        let horizon = effectiveHorizon(requested)
        guard horizon > 0 else { return }
        // The predictor's path, sampled at the report interval up to the horizon or a predicted lift.
        let sampled = samplePredictions(from: origin, horizon: horizon)
        // The post-filters; a predictor that knows too little to predict has forgotten the
        // motion, and so does the damping.
        if sampled.standingStill {
            damping.reset()
        } else {
            applyResidualCorrection(from: origin, primary: primary)
            applyDamping(from: origin, primary: primary)
        }
        // How sure the predictions are, learning from them when they are the frame's own.
        updateConfidence(from: origin, horizon: horizon, lastForce: sampled.lastForce, primary: primary)
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
