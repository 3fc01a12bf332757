@testable import PenEngine
import Testing

/// A stroke of `count` reports 5 ms apart from `start`: a steady line, or a zig-zag whose
/// direction flips every 3 reports (predictions along it miss by millimetres).
private func stroke(start: UInt64, count: Int, zigzag: Bool) -> [PredictionSample] {
    (0..<count).map { i in
        let across = zigzag ? Double((i / 3) % 2 == 0 ? i % 3 : 3 - i % 3) * 2 : 0
        return PredictionSample(time: start + UInt64(i) * 5_000, x: 10 + Double(i) * 0.5, y: 20 + across,
                                pressure: 0.5)
    }
}

private func stage() -> PredictionStage<PenkitPredictor> {
    PredictionStage(predictor: PenkitPredictor(), configuration: .standard())
}

@Suite("Expected error per pen")
struct PenCalibrationTests {
    @Test("a pen's expected error is learned from its own strokes, not from another pen's")
    func eachPenLearnsAlone() throws {
        let erratic = stroke(start: 1_000_000, count: 120, zigzag: true)
        let steady = stroke(start: 3_000_000, count: 60, zigzag: false)
        let again = stroke(start: 5_000_000, count: 3, zigzag: true)

        // Each pen alone: the steady one, and the erratic one coming back for a second stroke.
        var steadyAlone = stage()
        steadyAlone.reset(pen: 2)
        for sample in steady { steadyAlone.add(sample) }
        let steadyOwn = try #require(steadyAlone.expectedError)
        var erraticAlone = stage()
        erraticAlone.reset(pen: 1)
        for sample in erratic { erraticAlone.add(sample) }
        erraticAlone.reset(pen: 1)
        for sample in again { erraticAlone.add(sample) }
        let erraticOwn = try #require(erraticAlone.expectedError)

        // Both on one stage, taking turns: each gets exactly what it would alone.
        var shared = stage()
        shared.reset(pen: 1)
        for sample in erratic { shared.add(sample) }
        shared.reset(pen: 2)
        for sample in steady { shared.add(sample) }
        #expect(shared.expectedError == steadyOwn)
        shared.reset(pen: 1)
        for sample in again { shared.add(sample) }
        #expect(shared.expectedError == erraticOwn)

        // Without telling the pens apart, the erratic pen's record leaks into the steady one's.
        var mixed = stage()
        for sample in erratic { mixed.add(sample) }
        mixed.reset()
        for sample in steady { mixed.add(sample) }
        #expect(try #require(mixed.expectedError) != steadyOwn)
    }
}
