import PenEngine

/// The lab's settings for undoing libinput's smoothing, fenced off from the product as
/// ink-stroke-modeler fences its ExperimentalParams: the product runs `PenkitPrediction` alone;
/// `penkit bench predict` and `predict-tune` run `LabPrediction` with these.
package struct ExperimentalPrediction: Sendable, Hashable {
    /// How predictions undo libinput's smoothing; the product's is `.estimate` (`defaultChoice`).
    /// `.none` is how the baselines predict (the path they receive); `.invert`, `.model` and
    /// `.blend` are the lab's earlier answers (docs/prediction-research.md).
    package let compensation: SmoothingCompensation
    /// With `.blend`, the share of the prediction from the inverted path (the rest: the modelled one), in [0, 1].
    package let blendWeight: Double
    package static let defaultBlendWeight = 0.5

    /// The product's choice.
    package init() {
        compensation = .defaultChoice
        blendWeight = Self.defaultBlendWeight
    }

    /// These settings, or the one out of its range.
    package init(compensation: SmoothingCompensation = .defaultChoice,
                 blendWeight: Double = Self.defaultBlendWeight) throws(ParameterError) {
        try ParameterCheck(owner: "prediction experimental").number("blendWeight", blendWeight, from: 0, to: 1)
        self.compensation = compensation
        self.blendWeight = blendWeight
    }
}
