/// Lets one stage type run any predictor chosen at run time: the engine's (`EnginePrediction`)
/// and the benchmark's.
public struct AnyPredictor: Predictor {
    public private(set) var base: any Predictor
    public init(_ base: any Predictor) { self.base = base }
    public var name: String { base.name }
    public mutating func reset() { base.reset() }
    public mutating func contactChanged() { base.contactChanged() }
    public mutating func update(_ sample: PredictionSample) { base.update(sample) }
    public func extrapolate(by dt: Double) -> PredictionSample? { base.extrapolate(by: dt) }
    public func confidence(forHorizon horizon: Double) -> Double { base.confidence(forHorizon: horizon) }
}
