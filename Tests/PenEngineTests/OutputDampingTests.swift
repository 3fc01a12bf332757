import Testing
@testable import PenEngine

/// A pen moving along x, reported every 5 ms, each report off its path by up to `noise` mm
/// across it (a fixed pseudo-random sequence); its speed is `speed` mm/s, `laterSpeed` from
/// 150 ms on. Each frame's predictions under the default horizon, and where the pen really is.
private struct Run {
    var frames: [(reference: UInt64, predictions: [PredictionSample], real: SIMD2<Double>)] = []

    init(dampingHz: Double, noise: Double, speed: Double = 100, laterSpeed: Double = 100) throws {
        var parameters = PenkitPredictor.Parameters()
        parameters.motionSmoothing = .zero  // only the output damping under test
        parameters.travelGain = 1  // no deliberate shrinkage: the tip should reach the real pen
        let configuration = try PredictionConfiguration(dampingMinCutoffHz: dampingHz)
        var stage = EnginePrediction(try PenkitPredictor(parameters: parameters), configuration: configuration)
        let start: UInt64 = 1_000_000
        func real(_ time: UInt64) -> SIMD2<Double> {
            let t = Double(time - start) * 1e-6
            return SIMD2(10 + speed * min(t, 0.15) + laterSpeed * max(0, t - 0.15), 20)
        }
        var state: UInt64 = 12345
        for i in 0..<60 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            let offset = noise * (Double(state >> 11) / Double(1 << 53) * 2 - 1)
            let time = start + UInt64(i) * 5_000
            stage.add(PredictionSample(time: time, x: real(time)[0], y: 20 + offset, pressure: 0.5))
            if let tip = stage.predictions.last { frames.append((time, stage.predictions, real(tip.time))) }
        }
    }

    /// Mean change of the last sample's error vector between successive frames (the bench's
    /// jitter), after the first 100 ms.
    var jitter: Double {
        let errors = frames.dropFirst(20).map { SIMD2($0.predictions.last!.x - $0.real[0], $0.predictions.last!.y - $0.real[1]) }
        let changes = zip(errors, errors.dropFirst()).map { (($1 - $0) * ($1 - $0)).sum().squareRoot() }
        return changes.reduce(0, +) / Double(changes.count)
    }

    func miss(at frame: Int) -> Double {
        let tip = frames[frame].predictions.last!, real = frames[frame].real
        return ((SIMD2(tip.x, tip.y) - real) * (SIMD2(tip.x, tip.y) - real)).sum().squareRoot()
    }
}

@Suite("Output damping")
struct OutputDampingTests {
    @Test("noisy reports move the predictions less from frame to frame")
    func noiseDamped() throws {
        let plain = try Run(dampingHz: 0, noise: 0.05).jitter
        let damped = try Run(dampingHz: PredictionConfiguration.defaultDampingMinCutoffHz, noise: 0.05).jitter
        #expect(damped < 0.8 * plain, "jitter \(damped) mm against \(plain) mm without")
    }

    @Test("steady motion, and a new speed once it is steady, are predicted where the pen is")
    func steadyMotionReached() throws {
        let steady = try Run(dampingHz: PredictionConfiguration.defaultDampingMinCutoffHz, noise: 0)
        #expect(steady.miss(at: steady.frames.count - 1) < 0.05)
        let faster = try Run(dampingHz: PredictionConfiguration.defaultDampingMinCutoffHz, noise: 0, laterSpeed: 200)
        #expect(faster.miss(at: faster.frames.count - 1) < 0.05)
    }

    @Test("it moves positions only: the last sample still lies exactly at the horizon")
    func reachUnchanged() throws {
        let run = try Run(dampingHz: PredictionConfiguration.defaultDampingMinCutoffHz, noise: 0.05)
        for frame in run.frames {
            #expect(frame.predictions.last!.time == frame.reference + 16_000)
        }
    }
}
