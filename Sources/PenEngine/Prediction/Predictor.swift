/// One way of guessing where the pen will be a few milliseconds from now.
///
/// A predictor only models motion; the contracts every prediction obeys (spacing at the
/// report interval, the horizon cap, stopping at a predicted lift, resetting after a gap)
/// live once, in `PredictionStage`. Implementations are value types that keep their
/// history in storage allocated at init, so `update` and `extrapolate` never allocate.
package protocol Predictor: Sendable {
    /// A short, stable name for tables and command-line options.
    var name: String { get }
    /// Forgets everything: a new proximity, or input after a gap.
    mutating func reset()
    /// The pen touched down or lifted. Predictors that can use the motion just before it
    /// (the hand is often already moving at pen-down) keep their history; the default forgets.
    mutating func contactChanged()
    /// Takes the next real sample (times strictly increasing since the last reset).
    mutating func update(_ sample: PredictionSample)
    /// The state `dt` seconds after the newest sample; nil when the predictor has too little
    /// history. Only position, pressure, azimuth and altitude are read from the result.
    func extrapolate(by dt: Double) -> PredictionSample?
    /// How much of a requested horizon (seconds) the predictor trusts now, in [0, 1].
    /// The stage shortens the horizon by it, as ink-stroke-modeler shortens its prediction.
    func confidence(forHorizon horizon: Double) -> Double
}

extension Predictor {
    package func confidence(forHorizon horizon: Double) -> Double { 1 }
    package mutating func contactChanged() { reset() }
}
