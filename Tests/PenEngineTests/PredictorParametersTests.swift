import PenEngine
import PenEvaluation
import Testing

/// One out-of-range parameter: the name its error must carry, and how to set it.
struct BadParameter<Parameters: Sendable>: Sendable, CustomTestStringConvertible {
    let name: String
    let value: String
    let apply: @Sendable (inout Parameters) -> Void

    init(_ name: String, _ value: String, _ apply: @escaping @Sendable (inout Parameters) -> Void) {
        self.name = name
        self.value = value
        self.apply = apply
    }

    var testDescription: String { "\(name) \(value)" }

    /// What making a predictor from `defaults` with this one value changed throws; nil if it is accepted.
    func error(from defaults: Parameters,
               making make: (Parameters) throws(ParameterError) -> Void) -> ParameterError? {
        var parameters = defaults
        apply(&parameters)
        do throws(ParameterError) {
            try make(parameters)
            return nil
        } catch {
            return error
        }
    }
}

/// Predictor parameters and prediction settings are checked once, where they are made: each
/// out-of-range value is refused with its name, never clamped later; the shipped defaults pass.
@Suite struct PredictorParametersTests {
    @Test func penkitDefaultsAreValid() throws {
        let parameters = try PenkitPredictor.Parameters().validated()
        #expect(parameters.window == .milliseconds(100))
        #expect(parameters.motionSmoothing == .milliseconds(8))
        #expect(PenkitPredictor().parameters == parameters)
    }

    @Test func kalmanDefaultsAreValid() throws {
        let parameters = try KalmanPredictor.Parameters().validated()
        #expect(parameters.maxTimeSamples == 20)
        #expect(KalmanPredictor().parameters == parameters)
    }

    static let badPenkit: [BadParameter<PenkitPredictor.Parameters>] = [
        .init("window", "0") { $0.window = .zero },
        .init("window", "2 s") { $0.window = .seconds(2) },
        .init("decay", "-1 ms") { $0.decay = .milliseconds(-1) },
        .init("ramp", "-1 ms") { $0.ramp = .milliseconds(-1) },
        .init("ramp", "1.5 s") { $0.ramp = .milliseconds(1500) },
        .init("motionSmoothing", "-8 ms") { $0.motionSmoothing = .milliseconds(-8) },
        .init("turnGain", "1.5") { $0.turnGain = 1.5 },
        .init("maxTurnRadians", "4") { $0.maxTurnRadians = 4 },
        .init("travelGain", "-0.1") { $0.travelGain = -0.1 },
        .init("attributeGain", "2") { $0.attributeGain = 2 },
    ]

    @Test(arguments: badPenkit)
    func anOutOfRangePenkitParameterIsRefusedByName(bad: BadParameter<PenkitPredictor.Parameters>) {
        let error = bad.error(from: .init()) { p throws(ParameterError) in _ = try PenkitPredictor(parameters: p) }
        #expect(error?.description.hasPrefix("penkit \(bad.name) must be ") == true, "\(String(describing: error))")
    }

    /// The lab's knobs of penkit's predictor (PenEvaluation), checked the same way.
    static let badPenkitTuning: [BadParameter<ExperimentalPenkitTuning>] = [
        .init("smoothedDecay", "0") { $0.smoothedDecay = .zero },
        .init("experimental motionSmoothingSpeedMMPerSecond", "-1") { $0.motionSmoothingSpeedMMPerSecond = -1 },
        .init("experimental motionSmoothingSpeedMMPerSecond", "inf") { $0.motionSmoothingSpeedMMPerSecond = .infinity },
        .init("experimental tangentialGain", "nan") { $0.tangentialGain = .nan },
    ]

    @Test(arguments: badPenkitTuning)
    func anOutOfRangePenkitTuningIsRefusedByName(bad: BadParameter<ExperimentalPenkitTuning>) {
        let error = bad.error(from: .init()) { t throws(ParameterError) in
            _ = try LabPenkitPredictor(parameters: PenkitPredictor.Parameters(), tuning: t)
        }
        #expect(error?.description.hasPrefix("penkit \(bad.name) must be ") == true, "\(String(describing: error))")
    }

    static let badKalman: [BadParameter<KalmanPredictor.Parameters>] = [
        .init("processNoise", "0") { $0.processNoise = 0 },
        .init("measurementNoise", "-0.1") { $0.measurementNoise = -0.1 },
        .init("minStableIterations", "0") { $0.minStableIterations = 0 },
        .init("maxTimeSamples", "1") { $0.maxTimeSamples = 1 },
        .init("maxTimeSamples", "1 000 000") { $0.maxTimeSamples = 1_000_000 },
        .init("accelerationWeight", "1.5") { $0.accelerationWeight = 1.5 },
        .init("jerkWeight", "-1") { $0.jerkWeight = -1 },
        .init("desiredSampleCount", "0") { $0.desiredSampleCount = 0 },
        .init("maxEstimationDistanceMM", "nan") { $0.maxEstimationDistanceMM = .nan },
        .init("minTravelSpeedMMPerSecond", "-10") { $0.minTravelSpeedMMPerSecond = -10 },
        .init("maxTravelSpeedMMPerSecond", "below the minimum") { $0.maxTravelSpeedMMPerSecond = 5 },
        .init("maxLinearDeviationMM", "0") { $0.maxLinearDeviationMM = 0 },
        .init("baselineLinearityConfidence", "1.1") { $0.baselineLinearityConfidence = 1.1 },
    ]

    @Test(arguments: badKalman)
    func anOutOfRangeKalmanParameterIsRefusedByName(bad: BadParameter<KalmanPredictor.Parameters>) {
        let error = bad.error(from: .init()) { p throws(ParameterError) in _ = try KalmanPredictor(parameters: p) }
        #expect(error?.description.hasPrefix("kalman \(bad.name) must be ") == true, "\(String(describing: error))")
    }

    @Test func theLiveSettingsAreValid() throws {
        #expect(try PredictionConfiguration() == .standard())
        #expect(try PredictionConfiguration(inputSmoothing: 4) == .standard(smoothed: true))
        #expect(PredictionConfiguration.standard().horizon == .milliseconds(16))
    }

    /// Each setting of `PredictionConfiguration` set out of its range, the rest at their defaults.
    @Test(arguments: [("horizon", "80 ms"), ("horizon", "-1 ms"), ("gapReset", "0"), ("gapReset", "11 s"),
                      ("liftPressure", "1.5"), ("hoverHorizonScale", "nan"), ("inputSmoothing", "0"),
                      ("inputSmoothing", "17"), ("experimental blendWeight", "-0.5"), ("estimationJerkNoise", "0"),
                      ("dampingMinCutoffHz", "-1"), ("dampingMinCutoffHz", "inf"), ("dampingBetaHzPerMMPerSecond", "nan"),
                      ("correctionMemory", "-1 s"), ("correctionMemory", "601 s"), ("correctionShrinkCount", "-1"),
                      ("correctionShrinkCount", "nan")])
    func anOutOfRangePredictionSettingIsRefusedByName(name: String, value: String) {
        #expect {
            switch (name, value) {
            case ("horizon", "80 ms"): _ = try PredictionConfiguration(horizon: .milliseconds(80))
            case ("horizon", _): _ = try PredictionConfiguration(horizon: .milliseconds(-1))
            case ("gapReset", "0"): _ = try PredictionConfiguration(gapReset: .zero)
            case ("gapReset", _): _ = try PredictionConfiguration(gapReset: .seconds(11))
            case ("liftPressure", _): _ = try PredictionConfiguration(liftPressure: 1.5)
            case ("hoverHorizonScale", _): _ = try PredictionConfiguration(hoverHorizonScale: .nan)
            case ("inputSmoothing", "0"): _ = try PredictionConfiguration(inputSmoothing: 0)
            case ("inputSmoothing", _): _ = try PredictionConfiguration(inputSmoothing: 17)
            case ("estimationJerkNoise", _): _ = try PredictionConfiguration(estimationJerkNoise: 0)
            case ("dampingMinCutoffHz", "-1"): _ = try PredictionConfiguration(dampingMinCutoffHz: -1)
            case ("dampingMinCutoffHz", _): _ = try PredictionConfiguration(dampingMinCutoffHz: .infinity)
            case ("dampingBetaHzPerMMPerSecond", _): _ = try PredictionConfiguration(dampingBetaHzPerMMPerSecond: .nan)
            case ("correctionMemory", "-1 s"): _ = try PredictionConfiguration(correctionMemory: .seconds(-1))
            case ("correctionMemory", _): _ = try PredictionConfiguration(correctionMemory: .seconds(601))
            case ("correctionShrinkCount", "-1"): _ = try PredictionConfiguration(correctionShrinkCount: -1)
            case ("correctionShrinkCount", _): _ = try PredictionConfiguration(correctionShrinkCount: .nan)
            default: _ = try ExperimentalPrediction(blendWeight: -0.5)
            }
        } throws: { error in
            "\(error)".hasPrefix("prediction \(name) must be ")
        }
    }

    @Test func theBoundsThemselvesAreAccepted() throws {
        #expect(try PredictionConfiguration(horizon: .milliseconds(50)).horizon == .milliseconds(50))
        #expect(try PredictionConfiguration(horizon: .zero, hoverHorizonScale: 1, inputSmoothing: 16).inputSmoothing == 16)
        #expect(try PredictionConfiguration(dampingMinCutoffHz: 0, dampingBetaHzPerMMPerSecond: 0).dampingMinCutoffHz == 0)
        #expect(try PredictionConfiguration(correctionMemory: .zero, correctionShrinkCount: 0).correctionMemory == .zero)
        #expect(try PredictionConfiguration(correctionMemory: .seconds(600)).correctionMemory == .seconds(600))
        var parameters = PenkitPredictor.Parameters()
        parameters.ramp = .zero
        parameters.motionSmoothing = .zero
        parameters.window = .seconds(1)
        parameters.maxTurnRadians = .pi
        parameters.travelGain = 1
        #expect(try PenkitPredictor(parameters: parameters).parameters == parameters)
    }

    @Test func theErrorSaysTheRangeAndTheValue() {
        var parameters = PenkitPredictor.Parameters()
        parameters.decay = .zero
        #expect(throws: ParameterError("penkit decay must be over 0 to 1.0 seconds, not 0.0 seconds")) {
            try parameters.validated()
        }
        #expect(throws: ParameterError("prediction horizon must be from 0 to 0.05 seconds, not 0.08 seconds")) {
            try PredictionConfiguration(horizon: .milliseconds(80))
        }
    }

    /// The predictor converts its times once; a time under a second must become the very Double
    /// the parameters held before they were Durations, or predictions would change.
    @Test(arguments: [(7, 0.007), (3, 0.003), (100, 0.100), (40, 0.040), (8, 0.008), (64, 0.064)])
    func millisecondsConvertToTheSameSeconds(milliseconds: Int, seconds: Double) {
        #expect(Duration.milliseconds(milliseconds).inSeconds == seconds)
    }
}
