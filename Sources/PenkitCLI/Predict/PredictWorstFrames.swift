import Foundation
import PenEngine
import PenEvaluation

/// `bench predict --worst N`: penkit's largest errors at each horizon, with the frame each comes
/// from and its share of the squared error the RMSE is made of. RMSE weighs large errors most, so
/// a few frames can decide it; this names them.
func worstFramesReport(_ count: Int, benchmark: PredictionBenchmark, strokes: [BenchStroke], traces: [String],
                       horizons: [Double]) throws -> String {
    guard let penkit = BenchEntrant.standard.first(where: { $0.name == "penkit" }) else { return "" }
    // Strokes are numbered within their trace, from 1, in the order the trace holds them.
    var numbers: [Int] = []
    var seen: [Int: Int] = [:]
    for stroke in strokes {
        seen[stroke.pen, default: 0] += 1
        numbers.append(seen[stroke.pen]!)
    }
    var lines: [String] = []
    for horizon in horizons {
        let tips = try benchmark.scoredTips(penkit, strokes: strokes, horizon: horizon)
        let total = tips.reduce(0) { $0 + $1.tip.error * $1.tip.error }
        lines.append("penkit's \(min(count, tips.count)) largest errors at \(String(format: "%.0f", horizon * 1000)) ms "
                     + "(share of the squared error over \(tips.count) frames):")
        for entry in tips.sorted(by: { $0.tip.error > $1.tip.error }).prefix(count) {
            let stroke = strokes[entry.stroke]
            let trace = (traces[stroke.pen] as NSString).lastPathComponent
            let share = total > 0 ? entry.tip.error * entry.tip.error / total * 100 : 0
            lines.append("  \(trace) stroke \(numbers[entry.stroke]) frame \(entry.tip.frame + 1)/\(stroke.input.samples.count): "
                         + String(format: "%.2f mm (%.1f %%), ", entry.tip.error, share)
                         + "\(entry.tip.predictions) predicted sample(s)" + (entry.tip.cutByLift ? ", cut by a predicted lift" : ""))
        }
    }
    return lines.joined(separator: "\n")
}
