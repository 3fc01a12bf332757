import ArgumentParser
import Foundation
import PenEngine
import PenInput

/// `penkit bench predict TRACES…`: every predictor against the real trajectories of the
/// traces' strokes, in the metrics Android and Chromium report.
struct PredictBenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "predict",
        abstract: "Score the predictors on real traces (errors in mm against the real trajectory)."
    )

    @Argument(help: "evemu or `libinput record` traces.")
    var traces: [String]

    @Option(help: "Comma-separated horizons in ms (each at most 32).")
    var horizons = "8,16,24,32"

    @Flag(help: "Print JSON instead of a table.")
    var json = false

    @Option(help: "Write SVG pictures of the longest strokes into this directory.")
    var svg: String?

    @Option(help: "How many strokes to draw with --svg.")
    var svgStrokes = 4

    @Flag(inversion: .prefixedNo, help: "libinput's 4-sample smoothing of the input and the ground truth.")
    var smoothing = true

    @Option(help: "Ignore strokes with fewer frames than this.")
    var minFrames = 10

    @Flag(help: "Score hover runs instead of contact strokes.")
    var hover = false

    func validate() throws {
        _ = try parsedHorizons()
        guard !traces.isEmpty else { throw ValidationError("give at least one trace") }
        guard minFrames >= 2 else { throw ValidationError("--min-frames must be at least 2") }
    }

    func parsedHorizons() throws -> [Double] {
        let values = horizons.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard !values.isEmpty, values.allSatisfy({ $0 != nil && $0! > 0 && $0! <= 32 }) else {
            throw ValidationError("--horizons takes milliseconds in (0, 32], e.g. 8,16,24,32")
        }
        return values.map { $0! / 1000 }
    }

    func run() throws {
        let horizons = try parsedHorizons()
        var strokes: [Trajectory] = []
        for path in traces {
            let loaded = try loadStrokesForBench(path: path)
            strokes += hover ? loaded.hover : loaded.contact
        }
        guard !strokes.isEmpty else { throw RuntimeFailure("no \(hover ? "hover runs" : "strokes") of ≥ \(minFrames) frames in these traces") }
        // Hover is scored at the asked horizon too, not the live path's shorter one.
        let configuration = PredictionConfiguration(hoverHorizonScale: 1)
        let benchmark = PredictionBenchmark(horizons: horizons, configuration: configuration)
        let results = PredictorKind.allCases.flatMap { benchmark.evaluate($0, strokes: strokes) }
        let frames = strokes.reduce(0) { $0 + $1.samples.count }
        if json {
            let report = PredictReport(traces: traces.map { ($0 as NSString).lastPathComponent }, strokes: strokes.count,
                                       frames: frames, smoothing: smoothing, hover: hover, results: results)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            print(String(decoding: try encoder.encode(report), as: UTF8.self))
        } else {
            print(predictTable(results, horizons: horizons, strokes: strokes.count, frames: frames, hover: hover))
        }
        if let svg {
            try writePredictionSVGs(strokes: strokes, benchmark: benchmark, directory: svg, count: svgStrokes)
        }
    }

    private func loadStrokesForBench(path: String) throws -> PredictionStrokes {
        try loadPredictionStrokes(path: path, options: DecoderOptions(smoothing: smoothing), minFrames: minFrames)
    }
}

struct PredictReport: Codable {
    var traces: [String]
    var strokes: Int
    var frames: Int
    var smoothing: Bool
    var hover: Bool
    var results: [PredictionMetrics]
}
