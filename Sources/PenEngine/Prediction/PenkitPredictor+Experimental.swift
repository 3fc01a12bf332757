extension PenkitPredictor {
    /// The predictor's research parameters, fenced off from the ones the product tunes (as
    /// ink-stroke-modeler keeps its ExperimentalParams apart): `penkit bench predict-tune`
    /// explores them, and the product ships each at its neutral value. Checked with the rest
    /// of `Parameters` by `validated()`.
    package struct ExperimentalParameters: Sendable, Hashable {
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
    }
}
