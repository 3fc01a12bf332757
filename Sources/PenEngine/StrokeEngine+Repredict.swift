import PenKit

extension StrokeEngine {
    /// `frame`, the newest frame this engine sent, with its predictions made again at
    /// `horizon` seconds (0: none), for clients that asked for their own horizon. The
    /// predictor's motion state is unchanged; only the frame's own predictions (made with the
    /// frame) are scored to learn the expected error, whatever horizon is asked for here.
    package mutating func repredicted(_ frame: Frame, horizon: Double) -> Frame {
        var result = frame
        guard horizon > 0, prediction != nil else {
            result.predicted = []
            result.expectedError = nil
            result.liftProbability = nil
            return result
        }
        result.predicted = prediction!.repredict(after: frame.sample, horizon: horizon)
        let confidence = prediction!.confidence
        result.expectedError = result.predicted.isEmpty ? nil : confidence.expectedError
        result.liftProbability = result.predicted.isEmpty ? nil : confidence.liftProbability
        return result
    }
}
