import Testing
@testable import PenEngine

/// A pen moving along x at 100 mm/s, reported every 5 ms, each report off its path by up to
/// `noise` mm across it (a fixed pseudo-random sequence): each frame's last predicted sample,
/// and where the pen really is at its time.
private func tips(motionSmoothing: Duration, noise: Double) throws -> [(tip: PredictionSample, real: SIMD2<Double>)] {
    var parameters = PenkitPredictor.Parameters()
    parameters.motionSmoothing = motionSmoothing
    parameters.travelGain = 1  // no deliberate shrinkage: the tip should reach the real pen
    var stage = EnginePrediction(try PenkitPredictor(parameters: parameters), configuration: .standard())
    var state: UInt64 = 12345
    let start: UInt64 = 1_000_000
    func real(_ time: UInt64) -> SIMD2<Double> { SIMD2(10 + 100 * Double(time - start) * 1e-6, 20) }
    var result: [(tip: PredictionSample, real: SIMD2<Double>)] = []
    for i in 0..<60 {
        state = state &* 6364136223846793005 &+ 1442695040888963407
        let offset = noise * (Double(state >> 11) / Double(1 << 53) * 2 - 1)
        let time = start + UInt64(i) * 5_000
        stage.add(PredictionSample(time: time, x: real(time)[0], y: 20 + offset, pressure: 0.5))
        if let tip = stage.predictions.last { result.append((tip, real(tip.time))) }
    }
    return result
}

/// Mean change of the error vector between successive frames (the bench's jitter), after the
/// first 100 ms.
private func jitter(_ tips: [(tip: PredictionSample, real: SIMD2<Double>)]) -> Double {
    let errors = tips.dropFirst(20).map { SIMD2($0.tip.x - $0.real[0], $0.tip.y - $0.real[1]) }
    let changes = zip(errors, errors.dropFirst()).map { (($1 - $0) * ($1 - $0)).sum().squareRoot() }
    return changes.reduce(0, +) / Double(changes.count)
}

@Suite("Motion smoothing")
struct MotionSmoothingTests {
    @Test("steady motion is predicted as without it: the tip lands on the real pen")
    func steadyMotionUntouched() throws {
        let last = try tips(motionSmoothing: .milliseconds(8), noise: 0).last!
        #expect(abs(last.tip.x - last.real[0]) < 0.05 && abs(last.tip.y - last.real[1]) < 0.05)
    }

    @Test("noisy reports move the predictions less from frame to frame")
    func noiseDamped() throws {
        let plain = jitter(try tips(motionSmoothing: .zero, noise: 0.05))
        let smoothed = jitter(try tips(motionSmoothing: .milliseconds(8), noise: 0.05))
        #expect(smoothed < 0.8 * plain, "jitter \(smoothed) mm against \(plain) mm without")
    }
}
