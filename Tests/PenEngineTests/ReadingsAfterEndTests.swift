import PenEngine
import PenKit
import Testing

/// Issue #32: a source that states seconds of latency held each stroke back that long after a
/// single lost reading. Once the pen is up, a stroke waits at most `readingsAfterEnd`.
@Suite struct ReadingsAfterEndTests {
    /// The tap trace's first stroke under a source that states 10 s and never sends: when is it
    /// finalized, after its `ended`?
    static func finalizedAfterEnd(readingsAfterEnd: Duration) throws -> (ended: UInt64, finalized: UInt64) {
        let inputs = try Traces.inputs("wacom-intuos4-6x9-stylus-tap.evemu")
        var configuration = EngineConfiguration()
        configuration.readingsAfterEnd = readingsAfterEnd
        var engine = StrokeEngine(configuration: try configuration.validated())
        engine.attachPressureSource(PressureSourceAttachment(latency: 10_000_000, jitter: 0), device: inputs[0].device)
        var out: [EngineMessage] = []
        var ended: UInt64?
        for input in inputs {
            engine.handle(input.event, device: input.device, into: &out)
            for case .ended(let end) in out where ended == nil { ended = end.time }
            out.removeAll()
            if ended != nil { break }
        }
        let end = try #require(ended)
        // Step in 10 ms until the first stroke is finalized.
        var time = end
        while time < end + 20_000_000 {
            time += 10_000
            engine.advance(to: time, into: &out)
            if out.contains(where: { if case .stroke = $0 { true } else { false } }) { return (end, time) }
        }
        return (end, .max)
    }

    @Test func aStrokeWaitsAtMostTheBoundAfterItEnds() throws {
        let bounded = try Self.finalizedAfterEnd(readingsAfterEnd: .seconds(2))
        #expect(bounded.finalized > bounded.ended + 2_000_000)
        #expect(bounded.finalized <= bounded.ended + 2_010_000, "finalized \(bounded.finalized - bounded.ended) µs after ended")
        // The default is 5 s; a bound past the source's own 10 s changes nothing.
        let byDefault = try Self.finalizedAfterEnd(readingsAfterEnd: EngineConfiguration().readingsAfterEnd)
        #expect(byDefault.finalized <= byDefault.ended + 5_010_000)
        let unbounded = try Self.finalizedAfterEnd(readingsAfterEnd: .seconds(10))
        #expect(unbounded.finalized > unbounded.ended + 9_000_000, "the source's 10 s still rule below the bound")
    }

    @Test func theBoundIsValidated() {
        var configuration = EngineConfiguration()
        configuration.readingsAfterEnd = .seconds(11)
        #expect(throws: ParameterError.self) { try configuration.validated() }
        configuration.readingsAfterEnd = .zero
        #expect(throws: ParameterError.self) { try configuration.validated() }
    }
}
