import PenEngine
import PenKit
import Testing

/// Event times come from input (a trace, a device): at the very end of the clock, the engine's
/// sums of a time and a horizon or timeout saturate, never trap (issue #32: a looping replay's
/// second pass reached 2^64 µs and penkitd died with SIGILL).
@Suite struct TimesAtTheClocksEndTests {
    @Test(arguments: ["wacom-intuos4-6x9-stylus-tap.evemu", "wacom-cintiq-22hdt-pen.evemu"])
    func aTraceEndingAt2To64IsHandledWithPredictions(trace: String) throws {
        let inputs = try Traces.inputs(trace)
        let last = try #require(inputs.last?.event.time)
        var engine = StrokeEngine(prediction: EnginePrediction.penkit())
        var out: [EngineMessage] = []
        var frames = 0
        var predictedBackwards = 0
        for input in inputs {
            var event = input.event
            // The trace moved so that its last event is stamped UInt64.max.
            event.time = UInt64.max - (last - event.time)
            engine.handle(event, device: input.device, into: &out)
            for case .frame(let frame) in out {
                frames += 1
                // Saturated, a prediction is never stamped before its sample (a wrapped sum would be).
                predictedBackwards += frame.predicted.count { $0.time < frame.sample.time }
            }
            out.removeAll()
        }
        engine.cancelAll(at: .max, into: &out)
        engine.flush(into: &out)
        #expect(frames > 0)
        #expect(predictedBackwards == 0)
    }

    @Test func sumsOfTimesSaturate() {
        #expect(UInt64(10).saturatingAdd(5) == 15)
        #expect((UInt64.max - 3).saturatingAdd(5) == .max)
        #expect(UInt64(saturatingMicroseconds: 0.016) == 16_000)
        #expect(UInt64(saturatingMicroseconds: -1) == 0)
        #expect(UInt64(saturatingMicroseconds: .nan) == 0)
        #expect(UInt64(saturatingMicroseconds: 1e300) == .max)
    }
}
