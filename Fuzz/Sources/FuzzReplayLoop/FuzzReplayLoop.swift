import FuzzDriver
import PenEngine
import PenInput
import PenKit

@main
enum FuzzReplayLoopMain {
    static func main() { runFuzzer { data, size in data.map { fuzzReplayLoop($0, size) } ?? 0 } }
}

/// libFuzzer entry: any trace the reader accepts is replayed as penkitd replays it (`ReplaySchedule`,
/// its every time computation) for up to three looping passes, once on the trace's own clock and
/// once moved to within seconds of 2⁶⁴ µs, through the stroke engine with prediction. A trap, a
/// hang, an event stamped before its pass started, or a pass started past the ceiling is a bug.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzReplayLoop(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    guard let trace = try? EvemuReader.parse(bytes, file: "fuzz"), !trace.devices.isEmpty,
          var ownClock = try? ReplaySchedule(trace: trace, options: DecoderOptions()) else { return 0 }
    replay(&ownClock, passes: 3)
    // The same trace as if stamped up to 2 min before 2⁶⁴ µs (by an amount the input chooses): its
    // later events saturate at the clock's end, and the next pass must not start.
    if var nearTheEnd = try? ReplaySchedule(trace: trace, options: DecoderOptions(),
                                            base: UInt64.max - UInt64(size) * 7_919) {
        replay(&nearTheEnd, passes: 2)
    }
    return 0
}

private func replay(_ schedule: inout ReplaySchedule, passes: Int) {
    var engine = StrokeEngine(prediction: EnginePrediction.penkit())
    var decoded: [TabletEvent] = []
    var output: [EngineMessage] = []
    for pass in 0..<passes {
        if pass > 0 {
            guard schedule.startPass(at: schedule.nextUnpacedBase) else { break }
            if schedule.passEnd > ReplaySchedule.timeCeiling { fatalError("a pass was started past the ceiling") }
        }
        var steps = 0
        while let next = schedule.next(), steps < 200_000 {
            if next.time < schedule.base { fatalError("a step is stamped before its pass began") }
            decoded.removeAll(keepingCapacity: true)
            guard let device = schedule.step(into: &decoded) else { break }
            for event in decoded {
                output.removeAll(keepingCapacity: true)
                engine.handle(event, device: UInt32(device), into: &output)
            }
            steps += 1
        }
    }
    output.removeAll(keepingCapacity: true)
    engine.cancelAll(at: schedule.passEnd, into: &output)
    engine.flush(into: &output)
}
