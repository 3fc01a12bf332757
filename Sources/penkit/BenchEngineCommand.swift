import ArgumentParser
import Foundation
import PenEngine
import PenEvaluation
import PenInput
import PenKit

/// `penkit bench engine TRACE` or `penkit bench engine --synthetic-stroke S…`:
/// stroke-engine throughput in frames per second (median of several runs), with
/// and without encoding every message to its wire bytes. Synthetic strokes of
/// several lengths show whether cost stays flat in stroke length.
struct BenchEngineCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "engine",
        abstract: "Median stroke-engine throughput in frames per second on a trace or synthetic strokes."
    )

    @Argument(help: "The trace to replay (the largest shared one is traces/wacom-cintiq-22hdt-pen.evemu).")
    var trace: String?

    @Option(name: .customLong("synthetic-stroke"),
            help: "Instead of a trace, one made-up stroke of SECONDS at 200 Hz (repeat for several lengths).")
    var syntheticStrokes: [Double] = []

    @Option(help: "How many timed runs.")
    var runs = 9

    @Option(help: "Move pressure into a delayed second stream, MS[±JITTER].")
    var latePressure: String?

    func validate() throws {
        guard (trace == nil) != syntheticStrokes.isEmpty else {
            throw ValidationError("give a trace or --synthetic-stroke SECONDS, not both")
        }
        guard syntheticStrokes.allSatisfy({ $0 > 0 && $0 <= 3600 }) else {
            throw ValidationError("--synthetic-stroke takes seconds in (0, 3600]")
        }
    }

    func run() throws {
        var late: LatePressure?
        if let text = latePressure {
            guard let parsed = LatePressure(parsing: text) else { throw ValidationError("bad --late-pressure \(text)") }
            late = parsed
        }
        let replay = EngineReplay(latePressure: late)
        let lateNote = late.map { ", late pressure \($0.latency / 1000)±\($0.jitter / 1000) ms" } ?? ""
        if let trace {
            let inputs = try decodeForEngine(trace, options: DecoderOptions())
            let result = measure(replay, inputs)
            print("bench engine \(trace): \(inputs.count) tablet events → \(result.frames) frames, \(result.messages) messages" + lateNote)
            result.printLines()
            return
        }
        var first: EngineThroughput?
        for seconds in syntheticStrokes {
            let inputs = SyntheticStroke.events(seconds: seconds)
            let result = measure(replay, inputs)
            print("bench engine --synthetic-stroke \(seconds): one stroke, \(result.frames) frames, \(result.messages) messages" + lateNote)
            result.printLines(relativeTo: first)
            if first == nil { first = result }
        }
    }

    private func measure(_ replay: EngineReplay, _ inputs: [EngineReplay.Input]) -> EngineThroughput {
        var frames = 0
        var messages = 0
        replay.run(inputs) { m in
            messages += 1
            if case .frame = m { frames += 1 }
        }
        let engineOnly = BenchMedian.seconds(runs) {
            var sink = 0
            replay.run(inputs) { _ in sink &+= 1 }
            precondition(sink == messages)
        }
        var writer = JSONWriter(capacity: 1 << 16)
        let encoded = BenchMedian.seconds(runs) {
            var bytes = 0
            replay.run(inputs) { message in
                writer.removeAll()
                writer.line(message)
                bytes &+= writer.count
            }
            precondition(bytes > 0)
        }
        return EngineThroughput(frames: frames, messages: messages, runs: runs, engineOnly: engineOnly, encoded: encoded)
    }
}

struct EngineThroughput {
    var frames: Int
    var messages: Int
    var runs: Int
    var engineOnly: Double
    var encoded: Double

    func fps(_ seconds: Double) -> Int { Int((Double(frames) / seconds).rounded()) }

    func printLines(relativeTo base: EngineThroughput? = nil) {
        func ratio(_ mine: Double, _ theirs: (EngineThroughput) -> Double) -> String {
            guard let base else { return "" }
            let r = (Double(frames) / mine) / (Double(base.frames) / theirs(base))
            return String(format: "  (%.2f× the first length)", r)
        }
        print("  engine only:       \(fps(engineOnly)) frames/s (median of \(runs), \(BenchMedian.milliseconds(engineOnly)) ms CPU per replay)"
              + ratio(engineOnly, \.engineOnly))
        print("  engine + encoding: \(fps(encoded)) frames/s (median of \(runs), \(BenchMedian.milliseconds(encoded)) ms CPU per replay)"
              + ratio(encoded, \.encoded))
    }
}

enum BenchMedian {
    /// The median time of `runs` runs of `body`, in seconds, on this thread's CPU clock: on a
    /// shared host, time spent waiting for a core is not the code's cost.
    static func seconds(_ runs: Int, _ body: () -> Void) -> Double {
        var seconds: [Double] = []
        for _ in 0..<max(runs, 1) {
            let start = threadCPUSeconds()
            body()
            seconds.append(threadCPUSeconds() - start)
        }
        seconds.sort()
        return seconds[seconds.count / 2]
    }

    static func threadCPUSeconds() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    static func milliseconds(_ s: Double) -> String { String((s * 1e5).rounded() / 100) }
}
