import PenEngine

/// penkit's predictor with the lab's knobs (`ExperimentalPenkitTuning`): what the benchmark's
/// penkit entrants run. At the defaults, on raw positions, it computes what `PenkitPredictor` does.
package typealias LabPenkitPredictor = TunedPenkitPredictor<ExperimentalPenkitTuning>

/// The predictor's research knobs, fenced off from the ones the product tunes (as
/// ink-stroke-modeler keeps its ExperimentalParams apart): `penkit bench predict-tune` explores
/// them; the product runs `ShippedPenkitTuning`, each at its neutral value. Checked by `validated()`.
package struct ExperimentalPenkitTuning: PenkitTuning {
    /// The fit's decay for smoothed samples fitted through libinput's filter (`.model`, `.blend`):
    /// each already averages four raw positions, so it weighs more of the past than a raw one.
    /// Chosen from 7, 4, 3 and 2.5 ms on the shared traces (in-sample; docs/prediction.md).
    package var smoothedDecay: Duration = .milliseconds(3) {
        didSet { smoothedDecaySeconds = smoothedDecay.inSeconds }
    }
    /// `smoothedDecay` in seconds, converted once: the per-sample path does no `Duration` arithmetic.
    private var smoothedDecaySeconds = Duration.milliseconds(3).inSeconds
    /// Share of the fitted change of speed kept, in [0, 1] (0: constant speed, as shipped).
    package var tangentialGain = 0.0
    /// Speed (mm/s, in [0, 10 000]) at which `motionSmoothing`'s time constant has halved,
    /// as a 1€ filter's cutoff rises with speed: slow pens, whose velocity estimates are
    /// mostly noise, are smoothed most, fast ones, whose changes of speed cost most when
    /// followed late, least. 0: constant, as shipped.
    package var motionSmoothingSpeedMMPerSecond = 0.0
    /// Start raw samples' predictions from the fitted position, as smoothed samples' always
    /// do, instead of from the newest sample itself (which carries the pen's and the
    /// sensor's noise into every prediction). Off, as shipped.
    package var rawOriginFromFit = false

    package init() {}

    package func validated() throws(ParameterError) -> Self {
        try ParameterCheck(owner: "penkit").time("smoothedDecay", smoothedDecay, longest: PenkitPredictorParameters.longestTime)
        let research = ParameterCheck(owner: "penkit experimental")
        try research.number("motionSmoothingSpeedMMPerSecond", motionSmoothingSpeedMMPerSecond,
                            from: 0, to: 10_000, unit: " mm/s")
        try research.number("tangentialGain", tangentialGain, from: 0, to: 1)
        return self
    }

    package func fitDecay(for sample: PredictionSample, decay: Double) -> Double {
        sample.smoothingWindow > 1 ? smoothedDecaySeconds : decay
    }

    /// For a smoothed sample, (1, t, t²) averaged over the history entries libinput averaged:
    /// this sample and the `smoothedSamples − 1` before it (one `step` apart), the oldest
    /// repeated to fill the window. Fitting these fits the raw path itself: its running mean is
    /// what was observed (`.model`, `.blend`). A raw sample's is its own.
    package func basis(age: Double, step: Double, sample: PredictionSample) -> SIMD3<Double> {
        let window = Int(sample.smoothingWindow)
        guard window > 1 else { return PolynomialFit.rawBasis(age: age, step: step, sample: sample) }
        let distinct = min(max(Int(sample.smoothedSamples), 1), window)
        var sum = SIMD3<Double>(0, 0, 0)
        for j in 0..<window {
            let a = age + Double(min(j, distinct - 1)) * step
            sum += SIMD3(1, -a, a * a)
        }
        return sum / Double(window)
    }

    package func motionTimeConstant(_ timeConstant: Double, velocity: SIMD2<Double>) -> Double {
        guard motionSmoothingSpeedMMPerSecond > 0 else { return timeConstant }
        let speed = (velocity * velocity).sum().squareRoot()
        return timeConstant / (1 + speed / motionSmoothingSpeedMMPerSecond)
    }

    /// A smoothed sample lags the pen: predictions start from the fitted raw path's position instead.
    package func startsFromFit(_ newest: PredictionSample) -> Bool {
        newest.smoothingWindow > 1 || rawOriginFromFit
    }
}
