import ArgumentParser
import Foundation
import PenEngine
import PenEvaluation
import PenInput

/// `penkit bench predict TRACES…`: every predictor as a client receives its predictions,
/// judged against the real pen (the raw decode of the trace), in the metrics Android and
/// Chromium report, with the reach of the predictions and the calibration of their confidence.
struct PredictBenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "predict",
        abstract: "Score the predictors on real traces (errors in mm against the raw pen position at t + h)."
    )

    @Argument(help: "evemu or `libinput record` traces.")
    var traces: [String]

    @Option(help: "Comma-separated horizons in ms (each at most 50).")
    var horizons = "8,16,24,32"

    @Flag(help: "Print JSON instead of a table.")
    var json = false

    @Option(help: "Write SVG pictures of the longest strokes into this directory.")
    var svg: String?

    @Option(help: "How many strokes to draw with --svg.")
    var svgStrokes = 4

    @Flag(inversion: .prefixedNo, help: "Feed predictors libinput's 4-sample smoothed input (the live default); the truth is raw either way.")
    var smoothing = true

    @Flag(help: "Also score penkit's design alternatives (smoothing lag only modelled / only inverted / not compensated, no hover lead-in, no motion smoothing, round four's default: no residual correction, round three's default: the 7 ms fit without output damping, the defaults before the third round).")
    var variants = false

    @Option(help: "Ignore strokes with fewer frames than this.")
    var minFrames = 10

    @Flag(help: "Score hover runs instead of contact strokes.")
    var hover = false

    @Option(help: "Also list penkit's N largest errors at each horizon, with their frames and share of the squared error.")
    var worst = 0

    func validate() throws {
        _ = try parsedHorizons()
        guard !traces.isEmpty else { throw ValidationError("give at least one trace") }
        guard minFrames >= 2 else { throw ValidationError("--min-frames must be at least 2") }
        guard worst >= 0 else { throw ValidationError("--worst must not be negative") }
        guard worst == 0 || !json else { throw ValidationError("--worst prints a list: not with --json") }
    }

    func parsedHorizons() throws -> [Double] {
        let values = horizons.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
        let cap = PredictionConfiguration.horizonCapSeconds * 1000
        guard !values.isEmpty, values.allSatisfy({ $0 != nil && $0! > 0 && $0! <= cap }) else {
            throw ValidationError("--horizons takes milliseconds in (0, \(Int(cap))], e.g. 8,16,24,32")
        }
        return values.map { $0! / 1000 }
    }

    /// What one run scored: the strokes, the benchmark that scored them and its results.
    struct Scored {
        var horizons: [Double]
        var strokes: [BenchStroke]
        var benchmark: PredictionBenchmark
        var results: [PredictionMetrics]
        var frames: Int { strokes.reduce(0) { $0 + $1.input.samples.count } }
    }

    func score() throws -> Scored {
        let horizons = try parsedHorizons()
        var strokes: [BenchStroke] = []
        for (pen, path) in traces.enumerated() {
            let loaded = try loadPredictionStrokes(path: path, smoothing: smoothing, minFrames: minFrames, pen: pen)
            strokes += hover ? loaded.hover : loaded.contact
        }
        guard !strokes.isEmpty else { throw RuntimeFailure("no \(hover ? "hover runs" : "strokes") of ≥ \(minFrames) frames in these traces") }
        // Hover is scored at the asked horizon too, not the live path's shorter one.
        let configuration = try PredictionConfiguration(hoverHorizonScale: 1, inputSmoothing: smoothing ? 4 : 1)
        let benchmark = PredictionBenchmark(horizons: horizons, configuration: configuration)
        var entrants = BenchEntrant.standard
        // Without smoothing the compensations coincide: only the other variants differ.
        if variants { entrants += try BenchEntrant.penkitVariants.filter { smoothing || $0.compensation == .defaultChoice } }
        let results = try entrants.flatMap { try benchmark.evaluate($0, strokes: strokes) }
        return Scored(horizons: horizons, strokes: strokes, benchmark: benchmark, results: results)
    }

    /// The tables, and with `--worst` the largest errors, as the command prints them (the docs
    /// paste this; DocumentedPredictionTablesTests checks that they still say it).
    func text(_ scored: Scored) throws -> String {
        var text = predictTable(scored.results, horizons: scored.horizons, strokes: scored.strokes.count, frames: scored.frames,
                                smoothing: smoothing, hover: hover)
        if worst > 0 {
            text += "\n\n" + (try worstFramesReport(worst, benchmark: scored.benchmark, strokes: scored.strokes, traces: traces,
                                                     horizons: scored.horizons))
        }
        return text
    }

    func run() throws {
        let scored = try score()
        if json {
            let report = PredictReport(traces: traces.map { ($0 as NSString).lastPathComponent }, strokes: scored.strokes.count,
                                       frames: scored.frames, smoothing: smoothing, truth: "raw", hover: hover, results: scored.results)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            print(String(decoding: try encoder.encode(report), as: UTF8.self))
        } else {
            print(try text(scored))
        }
        if let svg {
            try writePredictionSVGs(strokes: scored.strokes, benchmark: scored.benchmark, directory: svg, count: svgStrokes)
        }
    }
}

struct PredictReport: Codable {
    var traces: [String]
    var strokes: Int
    var frames: Int
    var smoothing: Bool
    var truth: String
    var hover: Bool
    var results: [PredictionMetrics]
}
