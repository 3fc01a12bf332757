import PenEngine
import PenEvaluation
import PenKit
import Testing

/// `PredictionBenchmark.scoredTips` (`penkit bench predict --worst`): the frames whose errors
/// make up the RMSE, each where the error really is.
@Suite("Prediction benchmark's scored tips")
struct PredictionBenchmarkTipsTests {
    /// 30 reports 4 ms apart along x at 100 mm/s; the real pen is 2 mm off in y from the 21st
    /// report on (times from 1.080 s), a step the input never shows.
    private func strokeWithAStep() -> BenchStroke {
        let times = (0..<30).map { 1_000_000 + UInt64($0) * 4_000 }
        let input = times.map { PredictionSample(time: $0, x: 10 + Double($0 - 1_000_000) * 1e-4, y: 20, pressure: 0.5, touching: true) }
        let truth = input.enumerated().map { i, sample in
            var moved = sample
            if i >= 20 { moved.y += 2 }
            return moved
        }
        return BenchStroke(input: Trajectory(input), truth: Trajectory(truth))
    }

    @Test("the tips are the RMSE's frames, and the large errors lie where the real pen stepped")
    func tipsAccountForTheRMSE() throws {
        let strokes = [strokeWithAStep()]
        let benchmark = PredictionBenchmark(horizons: [0.016])
        let linear = try #require(BenchEntrant.standard.first { $0.name == "linear" })
        let metrics = try #require(try benchmark.evaluate(linear, strokes: strokes).first)
        let tips = try benchmark.scoredTips(linear, strokes: strokes, horizon: 0.016)
        #expect(tips.count == metrics.frames)
        let squared = tips.reduce(0) { $0 + $1.tip.error * $1.tip.error }
        #expect(abs((squared / Double(tips.count)).squareRoot() - metrics.rmse) < 1e-12)
        // A target at or past 1.080 s (frames 16 on) finds the pen 2 mm off; a target up to 1.072 s
        // (frames up to 14) finds it on the line the input follows, which the linear predictor
        // extends exactly once it has two samples (the first frame predicts the pen standing
        // still: 1.6 mm behind). Frames whose t + 16 ms lies past the last report (26 on) are not scored.
        for entry in tips {
            #expect(entry.stroke == 0)
            if entry.tip.frame >= 16 { #expect(entry.tip.error > 1.9, "frame \(entry.tip.frame)") }
            if (1...14).contains(entry.tip.frame) { #expect(entry.tip.error < 0.01, "frame \(entry.tip.frame)") }
        }
        #expect(abs((tips.first { $0.tip.frame == 0 }?.tip.error ?? 0) - 1.6) < 1e-9)
        #expect(tips.map(\.tip.frame).max() == 25)
    }
}
