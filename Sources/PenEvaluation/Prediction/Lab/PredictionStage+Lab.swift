import PenEngine

/// The lab's stage: the product's contracts around any predictor and compensation.
package typealias LabStage = PredictionStage<LabPrediction>

extension PredictionStage where Model == LabPrediction {
    /// `predictor` in the product's stage, undoing libinput's smoothing as `experimental` says.
    package init(predictor: any Predictor, configuration: PredictionConfiguration = .standard(),
                 experimental: ExperimentalPrediction = ExperimentalPrediction()) {
        self.init(model: LabPrediction(predictor, experimental: experimental, configuration: configuration),
                  configuration: configuration)
    }

    /// The predictor the stage runs.
    package var predictor: AnyPredictor { model.predictor }
}
