import ArgumentParser
import Foundation
import PenEngine
import PenEvaluation
import PenInput

/// `penkit bench predict-cost TRACES…`: time per frame of each predictor, as the live path
/// runs it (a PredictionStage producing the frame's predicted samples). Build with
/// `-c release` for figures that mean anything.
struct PredictCostCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "predict-cost",
        abstract: "Time per frame of each predictor (median of repeated runs over the traces' strokes)."
    )

    @Argument(help: "evemu or `libinput record` traces whose strokes are replayed.")
    var traces: [String]

    @Option(help: "Timed runs per predictor; the median is printed.")
    var repeats = 31

    @Option(help: "Horizon in ms predicted on every frame.")
    var horizon = 16.0

    func validate() throws {
        guard !traces.isEmpty else { throw ValidationError("give at least one trace") }
        guard (1...10_000).contains(repeats) else { throw ValidationError("--repeats takes 1...10000") }
        guard horizon > 0 && horizon <= 50 else { throw ValidationError("--horizon takes milliseconds in (0, 50]") }
    }

    func run() throws {
        var strokes: [Trajectory] = []
        for path in traces {
            let loaded = try loadPredictionStrokes(path: path, smoothing: true, minFrames: 2)
            strokes += (loaded.contact + loaded.hover).map(\.input)
        }
        let frames = strokes.reduce(0) { $0 + $1.samples.count }
        guard frames > 0 else { throw RuntimeFailure("no strokes or hover runs in these traces") }
        // The live default: smoothed input, compensated as penkit's stage does; peers predict
        // the path they receive (as `bench predict` scores them), so they skip the compensation
        // and the output damping.
        let configuration = try PredictionConfiguration(horizon: .milliseconds(horizon), inputSmoothing: 4)
        let peers = try PredictionConfiguration(horizon: .milliseconds(horizon), inputSmoothing: 4, dampingMinCutoffHz: 0)
        let uncompensated = try ExperimentalPrediction(compensation: .none)
        // Each in a stage of its own type, called directly, as the engine calls penkit's.
        func peer<P: Predictor>(_ predictor: P) -> PredictionStage<LabPrediction<P>> {
            PredictionStage(model: LabPrediction(predictor, experimental: uncompensated, configuration: peers), configuration: peers)
        }
        print("frames per run: \(frames) (contact and hover), horizon \(Int(horizon)) ms, median of \(repeats) runs")
        print("predictor   ns/frame   predicted samples/frame")
        for kind in PredictorKind.allCases {
            let (nanos, perFrame): (Double, Double)
            switch kind {
            case .none: (nanos, perFrame) = measure(peer(NoPredictor()), strokes)
            case .linear: (nanos, perFrame) = measure(peer(LinearPredictor()), strokes)
            case .leastSquares: (nanos, perFrame) = measure(peer(LeastSquaresPredictor()), strokes)
            case .kalman: (nanos, perFrame) = measure(peer(KalmanPredictor()), strokes)
            case .penkit: (nanos, perFrame) = measure(PredictionStage(model: LabPrediction(LabPenkitPredictor(), experimental: ExperimentalPrediction(),
                                                                                            configuration: configuration),
                                                                      configuration: configuration), strokes)
            }
            row(kind.rawValue, nanos, perFrame)
        }
        // The previous defaults side by side: round four's (no residual correction) and round
        // three's (also a 7 ms fit and no output damping).
        let uncorrected = try configuration.with(horizon: .milliseconds(horizon), correctionMemory: .zero)
        let roundFour = measure(EnginePrediction(PenkitPredictor(), configuration: uncorrected), strokes)
        row("pk-round4", roundFour.0, roundFour.1)
        var longerFit = PenkitPredictor.Parameters()
        longerFit.decay = .milliseconds(7)
        let undamped = try configuration.with(horizon: .milliseconds(horizon), dampingMinCutoffHz: 0, correctionMemory: .zero)
        let roundThree = measure(EnginePrediction(try PenkitPredictor(parameters: longerFit), configuration: undamped), strokes)
        row("pk-round3", roundThree.0, roundThree.1)
        // What the engine runs: the default predictor in the engine's own stage type
        // (EnginePrediction, a PredictionStage<PenkitPrediction>); `penkit` above is the lab's
        // model around the lab's tuning of the same predictor, as `bench predict` scores it.
        let engine = measure(EnginePrediction(PenkitPredictor(), configuration: configuration), strokes)
        row("engine", engine.0, engine.1)
    }

    private func row(_ name: String, _ nanos: Double, _ perFrame: Double) {
        let padded = name.padding(toLength: 9, withPad: " ", startingAt: 0)
        print("\(padded) \(String(format: "%10.0f", nanos)) \(String(format: "%25.1f", perFrame))")
    }

    /// Median nanoseconds per frame, and the mean number of predicted samples per frame.
    private func measure<Model: PredictionModel>(_ stage: PredictionStage<Model>, _ strokes: [Trajectory]) -> (Double, Double) {
        var stage = stage
        var frames = 0, predicted = 0
        var runs: [Double] = []
        let clock = ContinuousClock()
        for _ in 0..<repeats {
            frames = 0
            predicted = 0
            let start = clock.now
            for stroke in strokes {
                stage.reset(.proximity(nil))
                for sample in stroke.samples {
                    stage.add(sample)
                    predicted &+= stage.predictions.count
                    frames += 1
                }
            }
            let elapsed = clock.now - start
            let nanos = Double(elapsed.components.seconds) * 1e9 + Double(elapsed.components.attoseconds) * 1e-9
            runs.append(nanos / Double(frames))
        }
        runs.sort()
        return (runs[runs.count / 2], Double(predicted) / Double(max(frames, 1)))
    }
}
