import PenEngine

/// The predictors `penkit bench predict` compares, by name: penkit's and the baselines.
package enum PredictorKind: String, CaseIterable, Sendable {
    case none, linear, leastSquares = "lsq2", kalman, penkit

    package func make() -> any Predictor {
        switch self {
        case .none: return NoPredictor()
        case .linear: return LinearPredictor()
        case .leastSquares: return LeastSquaresPredictor()
        case .kalman: return KalmanPredictor()
        case .penkit: return LabPenkitPredictor()
        }
    }
}
