import Testing
@testable import PenEngine

/// A pen moving along x at a steady `speed` mm/s, reported every 5 ms for `seconds`, the
/// predictor keeping only `travelGain` of its extrapolated travel (so it falls short of the
/// real pen by a fixed share), each report off its path by up to `noise` mm along it (a fixed
/// pseudo-random sequence). Returns the RMS miss over the last second: the distance from each
/// frame's last predicted sample to where the pen really is then.
private func recentMiss(correctionMemory: Duration, travelGain: Double, noise: Double = 0,
                      speed: Double = 100, seconds: Double = 3) throws -> Double {
    var parameters = PenkitPredictor.Parameters()
    parameters.travelGain = travelGain
    let configuration = try PredictionConfiguration(correctionMemory: correctionMemory)
    var stage = EnginePrediction(try PenkitPredictor(parameters: parameters), configuration: configuration)
    let start: UInt64 = 1_000_000
    func realX(_ time: UInt64) -> Double { 10 + speed * Double(time - start) * 1e-6 }
    var state: UInt64 = 987654321
    var squared = 0.0, frames = 0
    let count = Int(seconds / 0.005)
    for i in 0..<count {
        state = state &* 6364136223846793005 &+ 1442695040888963407
        let offset = noise * (Double(state >> 11) / Double(1 << 53) * 2 - 1)
        let time = start + UInt64(i) * 5_000
        stage.add(PredictionSample(time: time, x: realX(time) + offset, y: 20, pressure: 0.5, touching: true))
        if i >= count - 200, let tip = stage.predictions.last {
            squared += (tip.x - realX(tip.time)) * (tip.x - realX(tip.time)) + (tip.y - 20) * (tip.y - 20)
            frames += 1
        }
    }
    return (squared / Double(max(frames, 1))).squareRoot()
}

@Suite("Residual correction")
struct ResidualCorrectionTests {
    @Test("a pen's predictions that keep falling short learn to reach it")
    func shortfallLearned() throws {
        // 100 mm/s over 16 ms is 1.6 mm; keeping 70 % of it falls 0.48 mm short.
        let uncorrected = try recentMiss(correctionMemory: .zero, travelGain: 0.7)
        let corrected = try recentMiss(correctionMemory: PredictionConfiguration.defaultCorrectionMemory, travelGain: 0.7)
        #expect(abs(uncorrected - 0.48) < 0.02, "without the correction the tip falls \(uncorrected) mm short")
        #expect(corrected < 0.25 * uncorrected, "corrected miss \(corrected) mm against \(uncorrected) mm")
    }

    @Test("predictions already on the pen stay there")
    func nothingToLearn() throws {
        let corrected = try recentMiss(correctionMemory: PredictionConfiguration.defaultCorrectionMemory, travelGain: 1)
        #expect(corrected < 0.02, "miss \(corrected) mm")
    }

    @Test("noise the correction cannot predict does not make predictions worse")
    func noiseNotFollowed() throws {
        // Along-track noise of up to 0.3 mm: the errors' mean is what the correction can learn,
        // and with full travel there is none; the gate keeps the rest out.
        let uncorrected = try recentMiss(correctionMemory: .zero, travelGain: 1, noise: 0.3)
        let corrected = try recentMiss(correctionMemory: PredictionConfiguration.defaultCorrectionMemory, travelGain: 1, noise: 0.3)
        #expect(corrected <= uncorrected + 0.05, "corrected miss \(corrected) mm against \(uncorrected) mm")
    }
}
