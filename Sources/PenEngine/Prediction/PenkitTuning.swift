/// What the lab varies in penkit's predictor beyond its `Parameters`: each knob as a question
/// the predictor asks at the one place it matters. The product answers with
/// `ShippedPenkitTuning`; PenEvaluation's `ExperimentalPenkitTuning` answers with research
/// values (`penkit bench predict-tune`), and is the only one handed samples libinput smoothed.
package protocol PenkitTuning: Sendable, Hashable {
    /// The defaults.
    init()
    /// This tuning, or the first value out of its range.
    func validated() throws(ParameterError) -> Self
    /// The fit's decay (s) for `sample`, given the parameters' `decay`.
    func fitDecay(for sample: PredictionSample, decay: Double) -> Double
    /// What the fit takes `sample`, `age` (s) old, reports `step` (s) apart, to have observed of
    /// the path: φ = (1, t, t²) or a mean of such (`PolynomialFit`).
    func basis(age: Double, step: Double, sample: PredictionSample) -> SIMD3<Double>
    /// The motion smoothing's time constant (s), given the parameters' and the smoothed velocity (mm/s).
    func motionTimeConstant(_ timeConstant: Double, velocity: SIMD2<Double>) -> Double
    /// Whether predictions from `newest` start at the fitted position rather than at the sample.
    func startsFromFit(_ newest: PredictionSample) -> Bool
    /// Share of the fitted change of speed kept, in [0, 1].
    var tangentialGain: Double { get }
}

/// The predictor as shipped: the fit's own decay and time constant, predictions from the
/// newest sample, at constant speed. The product only hands the predictor raw positions
/// (`PenkitPrediction`), so it has no use for the lab's handling of smoothed ones.
package struct ShippedPenkitTuning: PenkitTuning {
    package init() {}
    package func validated() -> Self { self }
    package func fitDecay(for sample: PredictionSample, decay: Double) -> Double { decay }
    @inline(__always)
    package func basis(age: Double, step: Double, sample: PredictionSample) -> SIMD3<Double> {
        PolynomialFit.rawBasis(age: age, step: step, sample: sample)
    }
    package func motionTimeConstant(_ timeConstant: Double, velocity: SIMD2<Double>) -> Double { timeConstant }
    package func startsFromFit(_ newest: PredictionSample) -> Bool { false }
    /// None, yet still multiplied in (not left out): the product computes exactly what it did
    /// when this was a parameter at 0, to the bit, whatever the fit gives.
    package var tangentialGain: Double { 0 }
}
