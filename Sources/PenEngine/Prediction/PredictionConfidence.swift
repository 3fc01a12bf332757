/// How sure a frame's predictions are (docs/prediction.md says exactly what the numbers mean).
package struct PredictionConfidence: Sendable, Hashable {
    /// Distance (mm) within which the real pen is expected to be, at the last predicted
    /// sample's time, about 68 % of the time (learned from this pen's recent predictions).
    package var expectedError: Double?
    /// Probability that the pen lifts within the horizon (contact frames only).
    package var liftProbability: Double?

    package init(expectedError: Double? = nil, liftProbability: Double? = nil) {
        self.expectedError = expectedError
        self.liftProbability = liftProbability
    }
}
