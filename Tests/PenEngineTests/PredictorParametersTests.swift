import PenEngine
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
}

/// Predictor parameters are checked once, where a predictor is made: each out-of-range value
/// is refused with its name, never clamped later; the shipped defaults pass.
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
        .init("smoothedDecay", "0") { $0.smoothedDecay = .zero },
        .init("ramp", "-1 ms") { $0.ramp = .milliseconds(-1) },
        .init("ramp", "1.5 s") { $0.ramp = .milliseconds(1500) },
        .init("motionSmoothing", "-8 ms") { $0.motionSmoothing = .milliseconds(-8) },
        .init("motionSmoothingSpeedMMPerSecond", "-1") { $0.motionSmoothingSpeedMMPerSecond = -1 },
        .init("motionSmoothingSpeedMMPerSecond", "inf") { $0.motionSmoothingSpeedMMPerSecond = .infinity },
        .init("tangentialGain", "nan") { $0.tangentialGain = .nan },
        .init("turnGain", "1.5") { $0.turnGain = 1.5 },
        .init("maxTurnRadians", "4") { $0.maxTurnRadians = 4 },
        .init("travelGain", "-0.1") { $0.travelGain = -0.1 },
        .init("attributeGain", "2") { $0.attributeGain = 2 },
    ]

    @Test(arguments: badPenkit)
    func anOutOfRangePenkitParameterIsRefusedByName(bad: BadParameter<PenkitPredictor.Parameters>) {
        var parameters = PenkitPredictor.Parameters()
        bad.apply(&parameters)
        #expect {
            _ = try PenkitPredictor(parameters: parameters)
        } throws: { error in
            "\(error)".hasPrefix("penkit \(bad.name) must be ")
        }
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
        var parameters = KalmanPredictor.Parameters()
        bad.apply(&parameters)
        #expect {
            _ = try KalmanPredictor(parameters: parameters)
        } throws: { error in
            "\(error)".hasPrefix("kalman \(bad.name) must be ")
        }
    }

    @Test func theBoundsThemselvesAreAccepted() throws {
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
        #expect(throws: PredictorParametersError("penkit decay must be over 0 to 1.0 seconds, not 0.0 seconds")) {
            try parameters.validated()
        }
    }

    /// The predictor converts its times once; a time under a second must become the very Double
    /// the parameters held before they were Durations, or predictions would change.
    @Test(arguments: [(7, 0.007), (3, 0.003), (100, 0.100), (40, 0.040), (8, 0.008), (64, 0.064)])
    func millisecondsConvertToTheSameSeconds(milliseconds: Int, seconds: Double) {
        #expect(Duration.milliseconds(milliseconds).inSeconds == seconds)
    }
}
