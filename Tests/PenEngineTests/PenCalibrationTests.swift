import PenKit
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

/// A pen on device 7 with `serial`.
private func pen(_ serial: UInt64) -> ToolKey {
    ToolKey(device: 7, tool: ToolIdentity(type: .pen, serial: serial, id: 0x802))
}

/// Plays proximities through one stage, each by its pen (nil: a reset that names no pen), and
/// returns the expected error after each.
private func expectedErrors(_ proximities: [(pen: ToolKey?, samples: [PredictionSample])]) -> [Double?] {
    var stage = EnginePrediction(PenkitPredictor(), configuration: .standard())
    return proximities.map { pen, samples in
        stage.reset(.proximity(pen))
        for sample in samples { stage.add(sample) }
        return stage.expectedError
    }
}

/// A pen key whose hash is the same for every pen: only equality tells two apart.
private struct CollidingPen: Hashable, Sendable {
    var number: Int
    func hash(into hasher: inout Hasher) { hasher.combine(0) }
}

@Suite("Expected error per pen")
struct PenCalibrationTests {
    @Test("a pen's expected error is learned from its own strokes, not from another pen's")
    func eachPenLearnsAlone() throws {
        let erratic = stroke(start: 1_000_000, count: 120, zigzag: true)
        let steady = stroke(start: 3_000_000, count: 60, zigzag: false)
        let again = stroke(start: 5_000_000, count: 3, zigzag: true)

        // Each pen alone: the steady one, and the erratic one coming back for a second stroke.
        let steadyOwn = try #require(expectedErrors([(pen(2), steady)])[0])
        let erraticOwn = try #require(expectedErrors([(pen(1), erratic), (pen(1), again)])[1])

        // Both on one stage, taking turns: each gets exactly what it would alone.
        let shared = expectedErrors([(pen(1), erratic), (pen(2), steady), (pen(1), again)])
        #expect(shared[1] == steadyOwn)
        #expect(shared[2] == erraticOwn)

        // Without telling the pens apart, the erratic pen's record leaks into the steady one's.
        let mixed = expectedErrors([(nil, erratic), (nil, steady)])
        #expect(try #require(mixed[1]) != steadyOwn)
    }

    @Test("the same serial on another device, or as another tool type, is another pen")
    func identityIsTheWholeKey() throws {
        let erratic = stroke(start: 1_000_000, count: 120, zigzag: true)
        let steady = stroke(start: 3_000_000, count: 60, zigzag: false)
        let steadyOwn = try #require(expectedErrors([(pen(2), steady)])[0])
        let otherDevice = ToolKey(device: 8, tool: pen(2).tool)
        var eraser = pen(2)
        eraser.tool.type = .eraser
        for other in [otherDevice, eraser] {
            let shared = expectedErrors([(other, erratic), (pen(2), steady)])
            #expect(shared[1] == steadyOwn)
        }
    }

    @Test("pens whose hashes collide keep two records")
    func collidingHashesStayApart() {
        let first = CollidingPen(number: 1), second = CollidingPen(number: 2)
        #expect(first.hashValue == second.hashValue)
        var calibrations = PenCalibrations<CollidingPen>(correctionMemory: 30, correctionShrinkCount: 30)
        calibrations.select(pen: first)
        // The first pen scores predictions: kept at 10 ms, the pen reaching them at 10 and 20 ms.
        calibrations.contact.record(target: 10_000, x: 1, y: 0, pressure: 0.5, travel: 1, horizon: 0.01)
        calibrations.contact.record(target: 20_000, x: 2, y: 0, pressure: 0.5, travel: 1, horizon: 0.01)
        for time: UInt64 in [0, 10_000, 20_000] {
            calibrations.contact.observe(time: time, real: SIMD3(Double(time) * 1e-4 + 0.5, 0, 0.5))
        }
        let learned = calibrations.contact.scored
        #expect(learned == 2)
        calibrations.select(pen: second)
        #expect(calibrations.contact.scored == 0)
        calibrations.select(pen: first)
        #expect(calibrations.contact.scored == learned)
    }
}
