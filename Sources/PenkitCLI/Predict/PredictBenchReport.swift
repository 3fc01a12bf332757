import Foundation
import PenEngine
import PenEvaluation

/// The people-facing table of `penkit bench predict`: one block per horizon.
func predictTable(_ results: [PredictionMetrics], horizons: [Double], strokes: Int, frames: Int,
                  smoothing: Bool, hover: Bool) -> String {
    func f(_ value: Double, _ digits: Int = 2) -> String { String(format: "%.\(digits)f", value) }
    func pad(_ s: String, _ width: Int) -> String { String(repeating: " ", count: max(0, width - s.count)) + s }
    var lines: [String] = []
    lines.append("\(hover ? "hover runs" : "strokes"): \(strokes), frames: \(frames); input: \(smoothing ? "libinput-smoothed (live default)" : "unsmoothed"); truth: raw pen position at t + h")
    lines.append("errors in mm of the last predicted sample a client receives, pressure in [0,1]")
    lines.append("rmse = along+off-trajectory RMSE; along = mean±SD, + = overshoot; fast = speed > 100 mm/s;")
    lines.append("rel = RMS of error / stroke path so far (≥ 1 mm); jitter = mean change of the error vector;")
    lines.append("end = frames whose target lies past the lift: count, mean overshoot, RMSE;")
    lines.append("reach = mean ms ahead of the last predicted sample; short = frames short of h not cut by a predicted lift;")
    lines.append("cut = frames cut by a predicted lift; ≤exp = share of errors within the expected error (aim 68 %);")
    lines.append("lift = Brier score of the lift probability, mean probability when the pen lifted / did not")
    let header = ["predictor", "frames", "rmse", "along", "±sd", "off", "press", "fast", "n", "rel", "jitter",
                  "end n", "overshoot", "end rmse", "reach", "short", "cut", "≤exp", "lift", "p|lift", "p|not"]
    let widths = [9, 6, 6, 7, 6, 6, 6, 6, 5, 6, 7, 6, 10, 9, 6, 6, 5, 5, 6, 7, 6]
    for horizon in horizons {
        let ms = horizon * 1000
        lines.append("")
        lines.append("horizon \(f(ms, 0)) ms")
        lines.append(zip(header, widths).map { pad($0, $1) }.joined(separator: " "))
        for m in results where abs(m.horizonMs - ms) < 1e-6 {
            let row = [m.predictor, "\(m.frames)", f(m.rmse), f(m.alongMean), f(m.alongSD), f(m.offRMSE), f(m.pressureRMSE, 3),
                       f(m.fastRMSE), "\(m.fastFrames)", f(m.relativeRMSE), f(m.jitter), "\(m.endFrames)",
                       f(m.endOvershootMean), f(m.endRMSE), f(m.reachMeanMs, 1), "\(m.shortFrames)", "\(m.liftCutFrames)",
                       f(m.withinExpected * 100, 0) + "%", f(m.liftBrier, 3), f(m.liftMeanWhenLifting), f(m.liftMeanOtherwise)]
            lines.append(zip(row, widths).map { pad($0, $1) }.joined(separator: " "))
        }
    }
    return lines.joined(separator: "\n")
}

/// Pictures of the longest strokes at 16 ms (or the first horizon): the real path, the tip
/// each predictor draws per frame, and grey lag lines from where the pen really is to the
/// last sample, which is all a renderer without prediction can show.
func writePredictionSVGs(strokes: [BenchStroke], benchmark: PredictionBenchmark, directory: String, count: Int) throws {
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    let horizon = benchmark.horizons.contains(where: { abs($0 - 0.016) < 1e-9 }) ? 0.016 : benchmark.horizons[0]
    let chosen = strokes.enumerated().sorted { $0.element.input.samples.count > $1.element.input.samples.count }.prefix(count)
    let colors: [PredictorKind: String] = [.linear: "#e6550d", .leastSquares: "#756bb1", .kalman: "#3182bd", .penkit: "#31a354"]
    for (index, stroke) in chosen {
        let xs = stroke.truth.samples.map(\.x), ys = stroke.truth.samples.map(\.y)
        let margin = 3.0
        let minX = xs.min()! - margin, minY = ys.min()! - margin
        let width = xs.max()! - minX + margin, height = ys.max()! - minY + margin
        let scale = 800 / max(width, height)
        func coordinate(_ x: Double, _ y: Double) -> (String, String) {
            (String(format: "%.2f", (x - minX) * scale), String(format: "%.2f", (y - minY) * scale))
        }
        func point(_ x: Double, _ y: Double) -> String { let (u, v) = coordinate(x, y); return "\(u),\(v)" }
        var body: [String] = []
        for tip in try benchmark.tips(BenchEntrant(name: "none", kind: .none, compensation: .none), stroke: stroke, horizon: horizon) {
            let (x1, y1) = coordinate(tip.truth.x, tip.truth.y), (x2, y2) = coordinate(tip.tip.x, tip.tip.y)
            body.append("<line x1=\"\(x1)\" y1=\"\(y1)\" x2=\"\(x2)\" y2=\"\(y2)\" stroke=\"#bbb\" stroke-width=\"1\"/>")
        }
        body.append("<polyline fill=\"none\" stroke=\"black\" stroke-width=\"2\" points=\"\(stroke.truth.samples.map { point($0.x, $0.y) }.joined(separator: " "))\"/>")
        var legend: [String] = ["<text x=\"8\" y=\"18\" font-size=\"14\">\(f0(horizon * 1000)) ms ahead; black: real (raw) path; grey: lag without prediction</text>"]
        for (row, kind) in [PredictorKind.linear, .leastSquares, .kalman, .penkit].enumerated() {
            let color = colors[kind]!
            let entrant = BenchEntrant.standard.first { $0.kind == kind }!
            let tips = try benchmark.tips(entrant, stroke: stroke, horizon: horizon)
            body.append("<polyline fill=\"none\" stroke=\"\(color)\" stroke-width=\"1.2\" opacity=\"0.8\" points=\"\(tips.map { point($0.tip.x, $0.tip.y) }.joined(separator: " "))\"/>")
            legend.append("<text x=\"8\" y=\"\(36 + 18 * row)\" font-size=\"14\" fill=\"\(color)\">\(kind.rawValue)</text>")
        }
        let svg = """
        <svg xmlns="http://www.w3.org/2000/svg" width="\(Int(width * scale))" height="\(Int(height * scale))">
        <rect width="100%" height="100%" fill="white"/>
        \(body.joined(separator: "\n"))
        \(legend.joined(separator: "\n"))
        </svg>
        """
        let path = (directory as NSString).appendingPathComponent("stroke-\(index + 1).svg")
        try svg.write(toFile: path, atomically: true, encoding: .utf8)
    }
}

private func f0(_ value: Double) -> String { String(format: "%.0f", value) }
