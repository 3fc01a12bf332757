import PenEngine

/// Lets one stage type run any predictor chosen at run time: the benchmark's entrants, penkit's
/// and the baselines. penkit's (the lab's tuning of it, `LabPenkitPredictor`) is held as its own
/// type, so the benchmark times it as the engine runs it (called directly); any other goes
/// through the existential.
package struct AnyPredictor: Predictor {
    /// penkit's predictor, tuned by the lab, when that is what was given.
    private var penkit: LabPenkitPredictor?
    /// Any other predictor (the baselines, tests' fakes); nil when `penkit` is set.
    private var other: (any Predictor)?

    package init(_ base: any Predictor) {
        if let penkit = base as? LabPenkitPredictor { self.penkit = penkit } else { other = base }
    }

    /// The predictor itself, as given.
    package var base: any Predictor { penkit ?? other! }
    package var name: String { penkit?.name ?? other!.name }

    // Mutated in place through the optional: no copy of the predictor's storage per sample.
    package mutating func reset() {
        if penkit != nil { penkit!.reset() } else { other!.reset() }
    }

    package mutating func contactChanged() {
        if penkit != nil { penkit!.contactChanged() } else { other!.contactChanged() }
    }

    package mutating func update(_ sample: PredictionSample) {
        if penkit != nil { penkit!.update(sample) } else { other!.update(sample) }
    }

    package func extrapolate(by dt: Double) -> PredictionSample? {
        if let penkit { return penkit.extrapolate(by: dt) }
        return other!.extrapolate(by: dt)
    }

    package func confidence(forHorizon horizon: Double) -> Double {
        if let penkit { return penkit.confidence(forHorizon: horizon) }
        return other!.confidence(forHorizon: horizon)
    }
}
