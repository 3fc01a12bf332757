import Testing
@testable import PenEngine

/// `count` contact reports 5 ms apart from `start`, moving along x at 100 mm/s.
private func stroke(start: UInt64, count: Int, touching: Bool = true) -> [PredictionSample] {
    (0..<count).map { i in
        let time = start + UInt64(i) * 5_000
        return PredictionSample(time: time, x: 10 + Double(i) * 0.5, y: 20, pressure: 0.5, touching: touching)
    }
}

/// penkit's stage on unsmoothed input, so the positions fed are the pen's.
private func stage() -> EnginePrediction { EnginePrediction.penkit(smoothed: false) }

@Suite("One reset event")
struct PredictionResetTests {
    @Test("a contact change keeps the motion and the report interval")
    func contactChangeKeepsMotion() {
        var s = stage()
        var samples = stroke(start: 1_000_000, count: 21, touching: false)
        let touchdown = samples.removeLast()
        for sample in samples { s.add(sample) }
        let interval = s.reportInterval
        s.reset(.contactChange)
        #expect(s.reportInterval == interval)
        s.reset(.proximity(nil))
        #expect(s.reportInterval == nil)
        // The stage itself sees the pen touch down (a contact change): still moving, the
        // newest predicted sample lies ahead of the pen, as it would not after a reset.
        var again = stage()
        for sample in samples { again.add(sample) }
        var touching = touchdown
        touching.touching = true
        again.add(touching)
        #expect((again.predictions.last?.x ?? 0) > touchdown.x + 1)
    }

    @Test("a gap forgets the motion but not the newest sample", arguments: [PredictionReset.gap, .timeWentBackwards])
    func motionForgotten(event: PredictionReset) {
        var s = stage()
        for sample in stroke(start: 1_000_000, count: 20) { s.add(sample) }
        s.reset(event)
        #expect(s.reportInterval == nil)
        // The stage still holds its newest sample after a gap, and nothing after time went backwards.
        #expect((s.reference == nil) == (event == .timeWentBackwards))
    }

    @Test("a new proximity forgets the stroke, the predictions and how sure they were")
    func proximityStartsAfresh() {
        var s = stage()
        for sample in stroke(start: 1_000_000, count: 20) { s.add(sample) }
        #expect(!s.predictions.isEmpty && s.expectedError != nil)
        s.reset(.proximity(nil))
        #expect(s.predictions.isEmpty && s.expectedError == nil && s.liftProbability == nil && s.reference == nil)
        s.add(stroke(start: 2_000_000, count: 1)[0])
        // One sample: no motion known, the pen stands still at the horizon.
        #expect(s.predictions.map(\.x) == [10])
    }
}
