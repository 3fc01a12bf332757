/// Replays strokes through predictors and scores each frame's prediction against the real
/// trajectory at the predicted time: the measurement behind `penkit bench predict`.
public struct PredictionBenchmark: Sendable {
    public var horizons: [Double]
    public var configuration: PredictionConfiguration
    /// Speed (mm/s) between the last two samples above which a frame counts as fast.
    public var fastSpeed = 100.0
    /// Frames whose stroke so far is shorter than this (mm) are left out of the relative error,
    /// which would otherwise be dominated by the first frames' near-zero paths.
    public var minRelativePath = 1.0

    public init(horizons: [Double], configuration: PredictionConfiguration = .init()) {
        self.horizons = horizons
        self.configuration = configuration
    }

    /// One frame's tip at one horizon, for pictures.
    public struct Tip: Sendable, Hashable {
        public var frame: Int
        public var tip: PredictionSample
        public var truth: PredictionSample
    }

    public func evaluate(_ kind: PredictorKind, strokes: [Trajectory]) -> [PredictionMetrics] {
        evaluate(name: kind.rawValue, strokes: strokes) { kind.make() }
    }

    public func evaluate(name: String, strokes: [Trajectory], make: () -> any Predictor) -> [PredictionMetrics] {
        var accumulators = Array(repeating: MetricsAccumulator(), count: horizons.count)
        var unused: [Tip] = []
        for stroke in strokes {
            score(stroke, predictor: make(), accumulators: &accumulators, tips: &unused, collectTips: false)
        }
        return zip(horizons, accumulators).map { horizon, accumulator in
            accumulator.metrics(predictor: name, horizonMs: horizon * 1000)
        }
    }

    /// The tips of every frame of one stroke at `horizon`, for drawing.
    public func tips(_ kind: PredictorKind, stroke: Trajectory, horizon: Double) -> [Tip] {
        var single = self
        single.horizons = [horizon]
        var accumulators = [MetricsAccumulator()]
        var tips: [Tip] = []
        single.score(stroke, predictor: kind.make(), accumulators: &accumulators, tips: &tips, collectTips: true)
        return tips
    }

    private func score(_ stroke: Trajectory, predictor: any Predictor,
                       accumulators: inout [MetricsAccumulator], tips: inout [Tip], collectTips: Bool) {
        let samples = stroke.samples
        guard samples.count >= 2 else { return }
        var stage = PredictionStage(predictor: AnyPredictor(predictor), configuration: configuration)
        var pathSoFar = 0.0
        var previousError = Array(repeating: SIMD2<Double>?.none, count: horizons.count)
        for (i, sample) in samples.enumerated() {
            stage.receive(sample)
            let fast: Bool = i > 0 && {
                let a = samples[i - 1], b = samples[i]
                let dt = Double(b.time - a.time) * 1e-6
                return dt > 0 && distance(b.x - a.x, b.y - a.y) / dt > fastSpeed
            }()
            if i > 0 { pathSoFar += distance(sample.x - samples[i - 1].x, sample.y - samples[i - 1].y) }
            for (h, horizon) in horizons.enumerated() {
                guard let tip = stage.tip(horizon: horizon) else { continue }
                let target = sample.time + UInt64((horizon * 1e6).rounded())
                let truth = stroke.interpolated(at: target)
                if collectTips { tips.append(Tip(frame: i, tip: tip, truth: truth)) }
                let error = SIMD2(tip.x - truth.x, tip.y - truth.y)
                if target <= stroke.endTime {
                    let direction = travelDirection(stroke, at: target, truth: truth)
                    let along = (error * direction).sum()
                    let off = abs(error[0] * direction[1] - error[1] * direction[0])
                    accumulators[h].addInside(along: along, off: off, pressure: tip.pressure - truth.pressure,
                                              fast: fast, relative: pathSoFar >= minRelativePath ? (error * error).sum().squareRoot() / pathSoFar : nil)
                    if let previous = previousError[h] {
                        let change = error - previous
                        accumulators[h].addJitter((change * change).sum().squareRoot())
                    }
                    previousError[h] = error
                } else {
                    let direction = finalDirection(stroke)
                    accumulators[h].addEnd(along: (error * direction).sum(), error: (error * error).sum().squareRoot())
                    previousError[h] = nil
                }
            }
        }
    }

    /// Unit vector from the real sample preceding `time` towards the truth at `time`
    /// (Android's along-trajectory axis); falls back to the segment's own direction.
    private func travelDirection(_ stroke: Trajectory, at time: UInt64, truth: PredictionSample) -> SIMD2<Double> {
        let samples = stroke.samples
        var i = stroke.index(atOrBefore: time)
        if samples[i].time == time && i > 0 { i -= 1 }
        while i > 0 {
            let d = SIMD2(truth.x - samples[i].x, truth.y - samples[i].y)
            let length = (d * d).sum().squareRoot()
            if length > 1e-9 { return d / length }
            i -= 1
        }
        let d = SIMD2(truth.x - samples[0].x, truth.y - samples[0].y)
        let length = (d * d).sum().squareRoot()
        return length > 1e-9 ? d / length : SIMD2(1, 0)
    }

    private func finalDirection(_ stroke: Trajectory) -> SIMD2<Double> {
        let samples = stroke.samples
        guard let last = samples.last else { return SIMD2(1, 0) }
        for previous in samples.dropLast().reversed() {
            let d = SIMD2(last.x - previous.x, last.y - previous.y)
            let length = (d * d).sum().squareRoot()
            if length > 1e-9 { return d / length }
        }
        return SIMD2(1, 0)
    }
}

/// Lets the stage, generic for the live path, run predictors chosen at run time.
public struct AnyPredictor: Predictor {
    private var base: any Predictor
    public init(_ base: any Predictor) { self.base = base }
    public var name: String { base.name }
    public mutating func reset() { base.reset() }
    public mutating func update(_ sample: PredictionSample) { base.update(sample) }
    public func extrapolate(by dt: Double) -> PredictionSample? { base.extrapolate(by: dt) }
    public func confidence(forHorizon horizon: Double) -> Double { base.confidence(forHorizon: horizon) }
}
