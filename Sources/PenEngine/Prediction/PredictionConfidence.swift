/// How sure a frame's predictions are (docs/prediction.md says exactly what the numbers mean).
public struct PredictionConfidence: Sendable, Hashable {
    /// Distance (mm) within which the real pen is expected to be, at the last predicted
    /// sample's time, about 68 % of the time (learned from this pen's recent predictions).
    public var expectedError: Double?
    /// Probability that the pen lifts within the horizon (contact frames only).
    public var liftProbability: Double?

    public init(expectedError: Double? = nil, liftProbability: Double? = nil) {
        self.expectedError = expectedError
        self.liftProbability = liftProbability
    }
}
