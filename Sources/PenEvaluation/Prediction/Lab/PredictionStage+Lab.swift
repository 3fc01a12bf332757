import PenEngine

/// The lab's stage: the product's contracts around any predictor, chosen at run time, and compensation.
package typealias LabStage = PredictionStage<LabPrediction<AnyPredictor>>

extension PredictionStage where Model == LabPrediction<AnyPredictor> {
    /// `predictor` in the product's stage, undoing libinput's smoothing as `experimental` says.
    package init(predictor: any Predictor, configuration: PredictionConfiguration = .standard(),
                 experimental: ExperimentalPrediction = ExperimentalPrediction()) {
        // An AnyPredictor given is taken as it is, not wrapped again.
        let any = predictor as? AnyPredictor ?? AnyPredictor(predictor)
        self.init(model: LabPrediction(any, experimental: experimental, configuration: configuration),
                  configuration: configuration)
    }

    /// The predictor the stage runs.
    package var predictor: AnyPredictor { model.predictor }
}
