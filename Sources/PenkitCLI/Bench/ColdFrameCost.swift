import Glibc
import PenEngine
import PenEvaluation
import PenKit

/// What one frame costs from cold caches, as penkitd pays it live. Between two reports of a pen
/// (5 to 8 ms) the input thread sleeps, and on a shared host other work evicts what the last
/// frame's code and data left in the caches: `penkit bench latency` shows the engine taking more
/// than ten times its unpaced cost per frame. Here, before each event, a buffer larger than the
/// last-level cache is written through, then the engine (with penkit's predictor, as penkitd
/// runs it) and the writer are timed apart; the same events are then timed again without the
/// walk. Run under `valgrind --tool=callgrind --cache-sim=yes`, the walk makes each frame's
/// cache-line misses countable per function.
struct ColdFrameCost {
    /// Per event that made a frame, ns; encoding covers every message the event made.
    struct Timings {
        var engine: [UInt64] = []
        var encoding: [UInt64] = []
    }

    let inputs: [EngineReplay.Input]
    let evictBytes: Int
    /// At most this many frames are timed (each cold one costs a walk of `evictBytes`).
    let frames: Int

    func measure(cold: Bool) -> Timings {
        let evicted = cold ? UnsafeMutableRawBufferPointer.allocate(byteCount: evictBytes, alignment: 64) : nil
        defer { evicted?.deallocate() }
        if let evicted { evicted.initializeMemory(as: UInt8.self, repeating: 0) }
        var engine = StrokeEngine(prediction: EnginePrediction.penkit())
        var output: [EngineMessage] = []
        output.reserveCapacity(64)
        var writer = JSONWriter(capacity: 1 << 16)
        var timings = Timings()
        timings.engine.reserveCapacity(frames)
        timings.encoding.reserveCapacity(frames)
        for input in inputs where timings.engine.count < frames {
            if let evicted { Self.writeThrough(evicted) }
            output.removeAll(keepingCapacity: true)
            writer.removeAll()
            let start = MonotonicClock.nanoseconds()
            engine.handle(input.event, device: input.device, into: &output)
            let handled = MonotonicClock.nanoseconds()
            for message in output { writer.line(message) }
            let encoded = MonotonicClock.nanoseconds()
            guard output.contains(where: { if case .frame = $0 { true } else { false } }) else { continue }
            timings.engine.append(handled - start)
            timings.encoding.append(encoded - handled)
        }
        return timings
    }

    /// One store per cache line: the buffer's lines displace whatever the caches held.
    @inline(never)
    private static func writeThrough(_ buffer: UnsafeMutableRawBufferPointer) {
        var offset = 0
        while offset < buffer.count {
            buffer[offset] &+= 1
            offset += 64
        }
    }
}
