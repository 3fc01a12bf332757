import Testing
@testable import PenEngine

@Suite("Prediction constants")
struct PredictionConstantsTests {
    @Test("every fixed tunable lies in its documented range")
    func constantsInRange() throws {
        try PredictionConstants.validated()
    }

    @Test("the one validator names the owner, the parameter, its range and the value refused")
    func validatorMessage() {
        let check = ParameterCheck(owner: "prediction constant")
        #expect(throws: ParameterError("prediction constant rate must be over 0.0 to 1.0, not 1.5")) {
            try check.number("rate", 1.5, over: 0, to: 1)
        }
        #expect(throws: ParameterError("maxSamplesPerStroke must be at least 1, not 0")) {
            try ParameterCheck(owner: nil).count("maxSamplesPerStroke", 0, atLeast: 1)
        }
    }
}
