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

/// Plays proximities through one stage, each by its pen (nil: a reset that names no pen), and
/// returns the expected error after each.
private func expectedErrors(_ proximities: [(pen: Int?, samples: [PredictionSample])]) -> [Double?] {
    var stage = PredictionStage(predictor: PenkitPredictor(), configuration: .standard())
    return proximities.map { pen, samples in
        if let pen { stage.reset(pen: pen) } else { stage.reset() }
        for sample in samples { stage.add(sample) }
        return stage.expectedError
    }
}

@Suite("Expected error per pen")
struct PenCalibrationTests {
    @Test("a pen's expected error is learned from its own strokes, not from another pen's")
    func eachPenLearnsAlone() throws {
        let erratic = stroke(start: 1_000_000, count: 120, zigzag: true)
        let steady = stroke(start: 3_000_000, count: 60, zigzag: false)
        let again = stroke(start: 5_000_000, count: 3, zigzag: true)

        // Each pen alone: the steady one, and the erratic one coming back for a second stroke.
        let steadyOwn = try #require(expectedErrors([(2, steady)])[0])
        let erraticOwn = try #require(expectedErrors([(1, erratic), (1, again)])[1])

        // Both on one stage, taking turns: each gets exactly what it would alone.
        let shared = expectedErrors([(1, erratic), (2, steady), (1, again)])
        #expect(shared[1] == steadyOwn)
        #expect(shared[2] == erraticOwn)

        // Without telling the pens apart, the erratic pen's record leaks into the steady one's.
        let mixed = expectedErrors([(nil, erratic), (nil, steady)])
        #expect(try #require(mixed[1]) != steadyOwn)
    }
}
