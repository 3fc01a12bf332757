import PenEngine
import PenInput
import PenKit

/// Replays strokes through predictors as the live path runs them and scores what a client
/// receives: each frame's last predicted sample against the real pen (the raw decode,
/// interpolated) at t + h. The measurement behind `penkit bench predict`.
package struct PredictionBenchmark: Sendable {
    package var horizons: [Double]
    package var configuration: PredictionConfiguration
    /// Speed (mm/s) between the last two samples above which a frame counts as fast.
    package var fastSpeed = 100.0
    /// Frames whose stroke so far is shorter than this (mm) are left out of the relative error,
    /// which would otherwise be dominated by the first frames' near-zero paths.
    package var minRelativePath = 1.0

    package init(horizons: [Double], configuration: PredictionConfiguration = .standard()) {
        self.horizons = horizons
        self.configuration = configuration
    }

    /// One frame's tip at one horizon, for pictures.
    package struct Tip: Sendable, Hashable {
        package var frame: Int
        package var tip: PredictionSample
        package var truth: PredictionSample
        /// Whether t + h lies within the stroke, so the frame counts in the RMSE (the others are `end` frames).
        package var scored = false
        /// How many predicted samples the frame carried, and whether a predicted lift cut them short.
        package var predictions = 0
        package var cutByLift = false

        /// The distance from the tip to the real pen at t + h, mm.
        package var error: Double { distance(tip.x - truth.x, tip.y - truth.y) }
    }

    /// A scored frame of one stroke (an index into the strokes given) and its tip.
    package struct StrokeTip: Sendable {
        package var stroke: Int
        package var tip: Tip
    }

    /// Each horizon's figures; an entrant or horizon the live path would refuse is refused here too.
    package func evaluate(_ entrant: BenchEntrant, strokes: [BenchStroke]) throws(ParameterError) -> [PredictionMetrics] {
        try horizons.map { horizon throws(ParameterError) in
            var accumulator = MetricsAccumulator()
            var unused: [Tip] = []
            var stage = try makeStage(entrant, horizon: horizon)
            for stroke in strokes {
                score(stroke, entrant: entrant, horizon: horizon, stage: &stage, accumulator: &accumulator,
                      tips: &unused, collectTips: false)
            }
            return accumulator.metrics(predictor: entrant.name, horizonMs: horizon * 1000)
        }
    }

    /// The tips of every frame of one stroke at `horizon`, for drawing.
    package func tips(_ entrant: BenchEntrant, stroke: BenchStroke, horizon: Double) throws(ParameterError) -> [Tip] {
        var accumulator = MetricsAccumulator()
        var tips: [Tip] = []
        var stage = try makeStage(entrant, horizon: horizon)
        score(stroke, entrant: entrant, horizon: horizon, stage: &stage, accumulator: &accumulator,
              tips: &tips, collectTips: true)
        return tips
    }

    /// Every scored frame's tip at `horizon`, run exactly as `evaluate` runs them (one stage
    /// across the strokes), so their squared errors add up to the RMSE's: where the error lies.
    package func scoredTips(_ entrant: BenchEntrant, strokes: [BenchStroke], horizon: Double) throws(ParameterError) -> [StrokeTip] {
        var accumulator = MetricsAccumulator()
        var stage = try makeStage(entrant, horizon: horizon)
        var result: [StrokeTip] = []
        for (index, stroke) in strokes.enumerated() {
            var tips: [Tip] = []
            score(stroke, entrant: entrant, horizon: horizon, stage: &stage, accumulator: &accumulator,
                  tips: &tips, collectTips: true)
            result += tips.filter(\.scored).map { StrokeTip(stroke: index, tip: $0) }
        }
        return result
    }

    /// One stage per entrant and horizon, kept across strokes as the live path keeps it, so
    /// the expected error is learned from the pen's earlier strokes too.
    private func makeStage(_ entrant: BenchEntrant, horizon: Double) throws(ParameterError) -> LabStage {
        let configuration = try configuration.with(horizon: .seconds(horizon),
                                                   estimationJerkNoise: entrant.estimationJerkNoise,
                                                   dampingMinCutoffHz: entrant.dampingMinCutoffHz,
                                                   dampingBetaHzPerMMPerSecond: entrant.dampingBetaHzPerMMPerSecond,
                                                   correctionMemory: entrant.correctionMemory,
                                                   correctionShrinkCount: entrant.correctionShrinkCount)
        let experimental = try ExperimentalPrediction(compensation: entrant.compensation, blendWeight: entrant.blendWeight)
        return LabStage(predictor: entrant.makePredictor(), configuration: configuration, experimental: experimental)
    }

    private func score(_ stroke: BenchStroke, entrant: BenchEntrant, horizon: Double,
                       stage: inout LabStage,
                       accumulator: inout MetricsAccumulator, tips: inout [Tip], collectTips: Bool) {
        let samples = stroke.input.samples
        let truth = stroke.truth
        guard samples.count >= 2, !truth.samples.isEmpty else { return }
        // A new proximity of this stroke's pen, as the engine starts one (the lead-in, if any, is its hover).
        stage.reset(.proximity(stroke.tool))
        if entrant.useLeadIn { for sample in stroke.leadIn { stage.receive(sample) } }
        var pathSoFar = 0.0
        var previousError: SIMD2<Double>?
        let horizonMicros = UInt64((horizon * 1e6).rounded())
        for (i, sample) in samples.enumerated() {
            stage.add(sample, horizon: horizon)
            let rawNow = truth.interpolated(at: sample.time)
            let fast: Bool = i > 0 && {
                let a = truth.interpolated(at: samples[i - 1].time)
                let dt = Double(sample.time - samples[i - 1].time) * 1e-6
                return dt > 0 && distance(rawNow.x - a.x, rawNow.y - a.y) / dt > fastSpeed
            }()
            if i > 0 {
                let a = truth.interpolated(at: samples[i - 1].time)
                pathSoFar += distance(rawNow.x - a.x, rawNow.y - a.y)
            }
            // What the client draws: the last predicted sample, or the sample itself.
            let tip = stage.predictions.last ?? sample
            let reach = tip.time > sample.time ? tip.time - sample.time : 0
            accumulator.addReach(Double(reach) * 1e-3, cutByLift: stage.cutByLift, short: reach < horizonMicros && !stage.cutByLift)
            let target = sample.time + horizonMicros
            let real = truth.interpolated(at: target)
            if collectTips {
                tips.append(Tip(frame: i, tip: tip, truth: real, scored: target <= truth.endTime,
                                predictions: stage.predictions.count, cutByLift: stage.cutByLift))
            }
            let error = SIMD2(tip.x - real.x, tip.y - real.y)
            let length = (error * error).sum().squareRoot()
            if let lift = stage.liftProbability {
                accumulator.addLift(probability: lift, lifted: target > truth.endTime)
            }
            if target <= truth.endTime {
                let direction = travelDirection(truth, at: target, real: real)
                let along = (error * direction).sum()
                let off = abs(error[0] * direction[1] - error[1] * direction[0])
                accumulator.addInside(along: along, off: off, pressure: tip.pressure - real.pressure, fast: fast,
                                      relative: pathSoFar >= minRelativePath ? length / pathSoFar : nil)
                if let expected = stage.expectedError { accumulator.addCalibration(within: length <= expected) }
                if let previousError {
                    let change = error - previousError
                    accumulator.addJitter((change * change).sum().squareRoot())
                }
                previousError = error
            } else {
                accumulator.addEnd(along: (error * finalDirection(truth)).sum(), error: length)
                previousError = nil
            }
        }
    }

    /// Unit vector from the real sample preceding `time` towards the truth at `time`
    /// (Android's along-trajectory axis); falls back to the segment's own direction.
    private func travelDirection(_ stroke: Trajectory, at time: UInt64, real: PredictionSample) -> SIMD2<Double> {
        let samples = stroke.samples
        var i = stroke.index(atOrBefore: time)
        if samples[i].time == time && i > 0 { i -= 1 }
        while i > 0 {
            let d = SIMD2(real.x - samples[i].x, real.y - samples[i].y)
            let length = (d * d).sum().squareRoot()
            if length > 1e-9 { return d / length }
            i -= 1
        }
        let d = SIMD2(real.x - samples[0].x, real.y - samples[0].y)
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
