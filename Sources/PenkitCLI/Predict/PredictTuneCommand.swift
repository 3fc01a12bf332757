import ArgumentParser
import Foundation
import PenEngine
import PenEvaluation

/// `penkit bench predict-tune TRACES…`: how well penkit's predictor parameters would do on a
/// recording they were not chosen on. For each trace, the candidate with the best score on the
/// *other* traces is scored on it (leave one trace out); the pooled held-out figures are what
/// to expect from new recordings, the in-sample ones (chosen and scored on all) are not.
struct PredictTuneCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "predict-tune",
        abstract: "Leave-one-trace-out choice of penkit's predictor parameters (RMSE at 16 and 32 ms, jitter at 16 ms)."
    )

    @Argument(help: "evemu or `libinput record` traces (at least two hold strokes).")
    var traces: [String]

    @Flag(inversion: .prefixedNo, help: "Feed libinput's 4-sample smoothed input (the live default); the truth is raw either way.")
    var smoothing = true

    @Option(help: "Ignore strokes with fewer frames than this.")
    var minFrames = 10

    @Option(help: "How many of the best in-sample candidates to list.")
    var top = 5

    @Option(help: "Weight of jitter beyond the Kalman filter's in the objective.")
    var jitterWeight = 10.0

    @Flag(help: "Choose only among candidates no worse (by more than 2 %) than penkit before this tuning round (`pk-before`: smoothing lag modelled, no motion smoothing) on any trace chosen on, in any of the three figures.")
    var noWorse = false

    @Flag(help: "Search only the two structural choices (blend weight 0, ½, 1; motion smoothing 0, 4, 8, 16 ms), every other parameter as shipped.")
    var structural = false

    @Flag(help: "Search how the raw path is recovered: blend ½ (inverted and modelled), inverted, or estimated at jerk noise 1e8…1e12 mm²/s⁵; with motion smoothing 0 and 8 ms.")
    var recovery = false

    @Flag(help: "Search the fit's decay (4, 5, 7 ms) × motion smoothing (0, 8 ms) × the stage's output damping (none, or a 1€ filter at 5, 10, 20 Hz with beta 0.1, 1); the raw path estimated as shipped.")
    var motion = false

    @Flag(help: "Search the stage's residual correction, learned online (memory none, 1, 5, 30 s × shrinkage 30, 100, 300 predictions) with the fit's decay (4, 5 ms) and motion smoothing (0, 8 ms); the rest as shipped.")
    var correction = false

    @Option(help: "Also print per-trace figures of the candidates whose label contains this.")
    var show: String?

    func run() throws {
        var names: [String] = []
        var perTrace: [[BenchStroke]] = []
        for path in traces {
            let strokes = try loadPredictionStrokes(path: path, smoothing: smoothing, minFrames: minFrames).contact
            guard !strokes.isEmpty else { continue }
            names.append((path as NSString).lastPathComponent)
            perTrace.append(strokes)
        }
        guard perTrace.count >= 2 else { throw RuntimeFailure("leaving one trace out needs two traces with strokes of ≥ \(minFrames) frames") }
        let configuration = try PredictionConfiguration(hoverHorizonScale: 1, inputSmoothing: smoothing ? 4 : 1)
        let benchmark = PredictionBenchmark(horizons: [0.016, 0.032], configuration: configuration)
        func scores(_ entrant: BenchEntrant) throws -> [TuneScore] {
            try perTrace.map { TuneScore(try benchmark.evaluate(entrant, strokes: $0)) }
        }
        let kalman = try scores(BenchEntrant(name: "kalman", kind: .kalman, compensation: .none))
        let shipped = try scores(BenchEntrant.standard.first { $0.kind == .penkit }!)
        let before = try scores(try BenchEntrant.penkitVariants.first { $0.name == "pk-before" }!)
        let candidates = try correction ? TuneCandidate.correctionGrid() : motion ? TuneCandidate.motionGrid() : recovery ? TuneCandidate.recoveryGrid() : structural ? TuneCandidate.structuralGrid() : TuneCandidate.grid()
        let table = try candidates.map { try scores($0.entrant) }

        func best(on traces: [Int]) -> Int {
            let limit = TuneScore.pooled(traces.map { kalman[$0] }).jitter16
            var chosen = 0, chosenScore = Double.infinity
            for (c, row) in table.enumerated() {
                if noWorse && !traces.allSatisfy({ row[$0].noWorse(than: before[$0]) }) { continue }
                let score = TuneScore.pooled(traces.map { row[$0] }).objective(jitterLimit: limit, jitterWeight: jitterWeight)
                if score < chosenScore { chosen = c; chosenScore = score }
            }
            return chosen
        }

        let all = Array(perTrace.indices)
        print("candidates: \(candidates.count); traces: \(names.count); input: \(smoothing ? "libinput-smoothed (live default)" : "raw")")
        if noWorse { print("only candidates no worse than pk-before (within 2 %) on every trace chosen on, in every figure") }
        print("objective: rmse16/0.40 + rmse32/0.85 + \(jitterWeight) × jitter16 beyond the Kalman filter's (relative), on the traces chosen on")
        print("")
        print("held-out trace".padding(toLength: 40, withPad: " ", startingAt: 0) + "  chosen on the others                                        rmse16 rmse32 jit16 | shipped rmse16 rmse32 jit16 | kalman jit16")
        var heldOut: [TuneScore] = []
        for t in all {
            let c = best(on: all.filter { $0 != t })
            heldOut.append(table[c][t])
            print(names[t].padding(toLength: 40, withPad: " ", startingAt: 0) + "  "
                  + candidates[c].label.padding(toLength: 58, withPad: " ", startingAt: 0)
                  + table[c][t].columns + " |        " + shipped[t].columns + " |  " + fixed(kalman[t].jitter16))
        }
        let pooledHeldOut = TuneScore.pooled(heldOut)
        let inSample = best(on: all)
        print("")
        print("pooled, leave one trace out:   " + pooledHeldOut.columns)
        print("pooled, shipped parameters:    " + TuneScore.pooled(shipped).columns)
        print("pooled, pk-before:             " + TuneScore.pooled(before).columns)
        print("pooled, chosen on all (in-sample): " + TuneScore.pooled(table[inSample].map { $0 }).columns
              + "  " + candidates[inSample].label)
        print("pooled, kalman:                " + TuneScore.pooled(kalman).columns)
        let limit = TuneScore.pooled(kalman).jitter16
        let ranked = table.indices.sorted {
            TuneScore.pooled(table[$0]).objective(jitterLimit: limit, jitterWeight: jitterWeight) < TuneScore.pooled(table[$1]).objective(jitterLimit: limit, jitterWeight: jitterWeight)
        }
        if let show {
            print("")
            print("per trace (rmse16 rmse32 jit16; traces in the order above), shipped and pk-before first:")
            print("  " + "shipped".padding(toLength: 58, withPad: " ", startingAt: 0) + shipped.map(\.columns).joined(separator: " |"))
            print("  " + "pk-before".padding(toLength: 58, withPad: " ", startingAt: 0) + before.map(\.columns).joined(separator: " |"))
            for (c, candidate) in candidates.enumerated() where candidate.label.contains(show) {
                print("  " + candidate.label.padding(toLength: 58, withPad: " ", startingAt: 0) + table[c].map(\.columns).joined(separator: " |"))
            }
        }
        print("")
        print("best \(top) in-sample:")
        for c in ranked.prefix(top) {
            print("  " + candidates[c].label.padding(toLength: 58, withPad: " ", startingAt: 0) + TuneScore.pooled(table[c]).columns)
        }
    }
}

/// One candidate's figures on some strokes, kept as sums so traces pool exactly.
struct TuneScore {
    var squared16 = 0.0, frames16 = 0
    var squared32 = 0.0, frames32 = 0
    var jitterSum16 = 0.0, jitterFrames16 = 0

    init() {}

    init(_ metrics: [PredictionMetrics]) {
        for m in metrics {
            let squared = m.rmse * m.rmse * Double(m.frames)
            if m.horizonMs < 24 {
                squared16 = squared; frames16 = m.frames
                jitterSum16 = m.jitter * Double(m.jitterFrames); jitterFrames16 = m.jitterFrames
            } else {
                squared32 = squared; frames32 = m.frames
            }
        }
    }

    static func pooled(_ scores: [TuneScore]) -> TuneScore {
        scores.reduce(into: TuneScore()) { sum, s in
            sum.squared16 += s.squared16; sum.frames16 += s.frames16
            sum.squared32 += s.squared32; sum.frames32 += s.frames32
            sum.jitterSum16 += s.jitterSum16; sum.jitterFrames16 += s.jitterFrames16
        }
    }

    var rmse16: Double { frames16 > 0 ? (squared16 / Double(frames16)).squareRoot() : 0 }
    var rmse32: Double { frames32 > 0 ? (squared32 / Double(frames32)).squareRoot() : 0 }
    var jitter16: Double { jitterFrames16 > 0 ? jitterSum16 / Double(jitterFrames16) : 0 }

    /// Both targets relative to their goal, and jitter beyond the limit weighed heavily.
    func objective(jitterLimit: Double, jitterWeight: Double) -> Double {
        rmse16 / 0.40 + rmse32 / 0.85 + jitterWeight * max(0, jitter16 - jitterLimit) / max(jitterLimit, 1e-9)
    }

    /// No figure more than 2 % worse than `other`'s: a change that helps one trace by hurting another is refused.
    func noWorse(than other: TuneScore) -> Bool {
        rmse16 <= other.rmse16 * 1.02 && rmse32 <= other.rmse32 * 1.02 && jitter16 <= other.jitter16 * 1.02
    }

    var columns: String { "  " + fixed(rmse16) + "   " + fixed(rmse32) + "  " + fixed(jitter16) }
}

/// A point of the parameter grid the tuning searches.
struct TuneCandidate {
    var blendWeight: Double
    /// The predictor with this point's parameters and tuning, validated where the grid is made.
    var predictor: LabPenkitPredictor
    /// Set: the raw path is estimated (`.estimate`) with this jerk noise, and `blendWeight` is unused.
    var estimationJerkNoise: Double?
    /// The stage's output damping (cutoff Hz, beta); nil: none.
    var outputDamping: (minCutoffHz: Double, beta: Double)? = nil
    /// The stage's residual correction (memory s, shrinkage count); nil: none.
    var residualCorrection: (memory: Double, shrinkCount: Double)? = nil

    init(blendWeight: Double, parameters: PenkitPredictor.Parameters, tuning: ExperimentalPenkitTuning = ExperimentalPenkitTuning(),
         estimationJerkNoise: Double? = nil) throws(ParameterError) {
        self.blendWeight = blendWeight
        self.estimationJerkNoise = estimationJerkNoise
        predictor = try LabPenkitPredictor(parameters: parameters, tuning: tuning)
    }

    var entrant: BenchEntrant {
        let compensation: SmoothingCompensation = estimationJerkNoise != nil ? .estimate
            : blendWeight <= 0 ? .model : blendWeight >= 1 ? .invert : .blend
        var entrant = BenchEntrant(name: "penkit", kind: .penkit, compensation: compensation)
        entrant.tunedPenkit = predictor
        entrant.blendWeight = blendWeight
        if let estimationJerkNoise { entrant.estimationJerkNoise = estimationJerkNoise }
        entrant.dampingMinCutoffHz = outputDamping?.minCutoffHz ?? 0
        if let outputDamping { entrant.dampingBetaHzPerMMPerSecond = outputDamping.beta }
        entrant.correctionMemory = .seconds(residualCorrection?.memory ?? 0)
        if let residualCorrection { entrant.correctionShrinkCount = residualCorrection.shrinkCount }
        return entrant
    }

    var label: String {
        let p = predictor.parameters, t = predictor.tuning
        let recovery = estimationJerkNoise.map { "est 1e\(Int(log10($0).rounded()))" } ?? "inv \(fixed(blendWeight))"
        let damping = outputDamping.map { "damp \(Int($0.minCutoffHz))/\(fixed($0.beta)) " } ?? ""
        let correction = residualCorrection.map { "corr \(Int($0.memory))/\(Int($0.shrinkCount)) " } ?? ""
        return "\(correction)\(damping)\(recovery) dec \(ms(t.smoothedDecay))/\(ms(p.decay))\(t.rawOriginFromFit ? "f" : "") sm \(ms(p.motionSmoothing))/\(Int(t.motionSmoothingSpeedMMPerSecond)) tr \(fixed(p.travelGain)) ta \(fixed(t.tangentialGain))"
    }

    private func ms(_ time: Duration) -> String { String(Int((time.inSeconds * 1000).rounded())) }

    /// The smoothing compensation (model, blend, invert) and the motion smoothing only.
    static func structuralGrid() throws(ParameterError) -> [TuneCandidate] {
        var result: [TuneCandidate] = []
        for blend in [0.0, 0.5, 1.0] {
            for smoothingMs in [0, 4, 8, 16] {
                var p = PenkitPredictor.Parameters()
                p.motionSmoothing = .milliseconds(smoothingMs)
                result.append(try TuneCandidate(blendWeight: blend, parameters: p))
            }
        }
        return result
    }

    /// The raw path blended (½), inverted, or estimated (jerk noise in decades), with and
    /// without motion smoothing; every other parameter as shipped.
    static func recoveryGrid() throws(ParameterError) -> [TuneCandidate] {
        var result: [TuneCandidate] = []
        for smoothingMs in [0, 8] {
            var p = PenkitPredictor.Parameters()
            p.motionSmoothing = .milliseconds(smoothingMs)
            for blend in [0.5, 1.0] { result.append(try TuneCandidate(blendWeight: blend, parameters: p)) }
            for jerk in [1e8, 1e9, 1e10, 1e11, 1e12] {
                result.append(try TuneCandidate(blendWeight: 1, parameters: p, estimationJerkNoise: jerk))
            }
        }
        return result
    }

    /// The fit's decay × motion smoothing × output damping; every other parameter as shipped.
    static func motionGrid() throws(ParameterError) -> [TuneCandidate] {
        var result: [TuneCandidate] = []
        let jerk = PredictionConfiguration.defaultEstimationJerkNoise
        for decayMs in [4, 5, 7] {
            for smoothingMs in [0, 8] {
                var p = PenkitPredictor.Parameters()
                p.decay = .milliseconds(decayMs)
                p.motionSmoothing = .milliseconds(smoothingMs)
                result.append(try TuneCandidate(blendWeight: 1, parameters: p, estimationJerkNoise: jerk))
                for cutoff in [5.0, 10, 20] {
                    for beta in [0.1, 0.3, 1] {
                        var c = try TuneCandidate(blendWeight: 1, parameters: p, estimationJerkNoise: jerk)
                        c.outputDamping = (cutoff, beta)
                        result.append(c)
                    }
                }
            }
        }
        return result
    }

    /// The residual correction's memory × shrinkage, with the fit's decay and the motion
    /// smoothing (a correction learned online may want a different trade-off); damping as shipped.
    static func correctionGrid() throws(ParameterError) -> [TuneCandidate] {
        var result: [TuneCandidate] = []
        let jerk = PredictionConfiguration.defaultEstimationJerkNoise
        let damping = (PredictionConfiguration.defaultDampingMinCutoffHz, PredictionConfiguration.defaultDampingBetaHzPerMMPerSecond)
        for decayMs in [4] {
            for smoothingMs in [8] {
                var p = PenkitPredictor.Parameters()
                p.decay = .milliseconds(decayMs)
                p.motionSmoothing = .milliseconds(smoothingMs)
                var plain = try TuneCandidate(blendWeight: 1, parameters: p, estimationJerkNoise: jerk)
                plain.outputDamping = damping
                result.append(plain)
                for memory in [1.0, 5, 30] {
                    for shrink in [30.0, 100, 300] {
                        var c = plain
                        c.residualCorrection = (memory, shrink)
                        result.append(c)
                    }
                }
            }
        }
        return result
    }

    /// Round values only, in steps coarse enough that the choice cannot fit the traces' noise.
    static func grid() throws(ParameterError) -> [TuneCandidate] {
        var result: [TuneCandidate] = []
        for blend in [0.0, 0.25, 0.5, 0.75, 1.0] {
            // The modelled path uses only smoothedDecay, the inverted one only decay and rawOriginFromFit.
            for smoothedDecayMs in blend < 1 ? [3, 4] : [3] {
                for decayMs in blend > 0 ? [5, 7] : [7] {
                    for originFromFit in blend > 0 ? [false, true] : [false] {
                        for (smoothingMs, smoothingSpeed) in [(0, 0.0), (8, 0.0), (16, 0.0), (16, 50.0),
                                                              (32, 50.0), (32, 100.0), (64, 50.0)] {
                            for travel in [0.9, 1.0] {
                                for tangential in [0.0, 0.25] {
                                    var p = PenkitPredictor.Parameters()
                                    var t = ExperimentalPenkitTuning()
                                    t.smoothedDecay = .milliseconds(smoothedDecayMs)
                                    p.decay = .milliseconds(decayMs)
                                    t.rawOriginFromFit = originFromFit
                                    p.motionSmoothing = .milliseconds(smoothingMs)
                                    t.motionSmoothingSpeedMMPerSecond = smoothingSpeed
                                    p.travelGain = travel
                                    t.tangentialGain = tangential
                                    result.append(try TuneCandidate(blendWeight: blend, parameters: p, tuning: t))
                                }
                            }
                        }
                    }
                }
            }
        }
        return result
    }
}

private func fixed(_ value: Double) -> String { String(format: "%.3f", value) }
