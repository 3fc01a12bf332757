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

    @Flag(help: "Time each frame of the trace from cold caches (after writing through --evict-mib), then warm, with penkit's predictor as penkitd runs it.")
    var cold = false

    @Option(help: "MiB written through before each event with --cold: more than the last-level cache.")
    var evictMib = 64

    @Option(help: "Frames timed with --cold.")
    var coldFrames = 1500

    @Option(help: "Also time engine + encoding with each finalized stroke encoded as penkitd sends it to a client that takes parts of at most N points (docs/protocol.md, \"Long strokes\").")
    var strokePartPoints: Int?

    func validate() throws {
        guard (trace == nil) != syntheticStrokes.isEmpty else {
            throw ValidationError("give a trace or --synthetic-stroke SECONDS, not both")
        }
        if let strokePartPoints, !(1...PartedStroke.maxPointsPerPart).contains(strokePartPoints) {
            throw ValidationError("--stroke-part-points takes 1...\(PartedStroke.maxPointsPerPart)")
        }
        guard syntheticStrokes.allSatisfy({ $0 > 0 && $0 <= 3600 }) else {
            throw ValidationError("--synthetic-stroke takes seconds in (0, 3600]")
        }
        if cold {
            guard trace != nil, latePressure == nil else { throw ValidationError("--cold takes a trace, without --late-pressure") }
            guard (1...4096).contains(evictMib), coldFrames >= 1 else {
                throw ValidationError("--evict-mib takes 1...4096 and --cold-frames a positive count")
            }
        }
    }

    func run() throws { _ = try measureAndPrint() }

    /// Prints the figures and returns, per synthetic stroke (or for the trace), its throughput.
    func measureAndPrint() throws -> [EngineThroughput] {
        var late: LatePressure?
        if let text = latePressure {
            guard let parsed = LatePressure(parsing: text) else { throw ValidationError("bad --late-pressure \(text)") }
            late = parsed
        }
        let replay = EngineReplay(latePressure: late)
        let lateNote = late.map { ", late pressure \($0.latency / 1000)±\($0.jitter / 1000) ms" } ?? ""
        if let trace, cold {
            printColdCost(ColdFrameCost(inputs: try decodeForEngine(trace, options: DecoderOptions()),
                                        evictBytes: evictMib << 20, frames: coldFrames), trace: trace)
            return []
        }
        if let trace {
            let inputs = try decodeForEngine(trace, options: DecoderOptions())
            let result = measure(replay, inputs)
            print("bench engine \(trace): \(inputs.count) tablet events → \(result.frames) frames, \(result.messages) messages" + lateNote)
            result.printLines()
            return [result]
        }
        // Interleaved: each round times every length once, so a host that slows down part way
        // through (these machines are shared) slows every length alike and the ratios hold.
        let strokes = syntheticStrokes.map { SyntheticStroke.events(seconds: $0) }
        // A short stroke is replayed several times per timing (each replay a fresh engine), so that
        // every timing spans at least a minute of strokes: a 1 s stroke alone takes well under a
        // millisecond, where a timer tick or a cache refill would decide its figure.
        let repetitions = syntheticStrokes.map { max(1, Int((Self.minimumTimedSeconds / $0).rounded(.up))) }
        let results = measureInterleaved(replay, strokes, repetitions: repetitions)
        for (index, seconds) in syntheticStrokes.enumerated() {
            let result = results[index]
            let times = repetitions[index] == 1 ? "" : ", replayed \(repetitions[index]) times per timing"
            print("bench engine --synthetic-stroke \(seconds): one stroke, \(result.frames) frames, \(result.messages) messages"
                  + times + lateNote)
            result.printLines(relativeTo: index == 0 ? nil : results[0])
        }
        return results
    }

    private func printColdCost(_ cost: ColdFrameCost, trace: String) {
        // Warm first: the cold pass's walk would leave the warm one's first frames cold.
        let warm = cost.measure(cold: false)
        let cold = cost.measure(cold: true)
        func line(_ t: ColdFrameCost.Timings) -> String {
            "engine p50 \(Self.microseconds(t.engine, 0.5)) µs p90 \(Self.microseconds(t.engine, 0.9)) µs; "
                + "encoding p50 \(Self.microseconds(t.encoding, 0.5)) µs p90 \(Self.microseconds(t.encoding, 0.9)) µs"
        }
        func ratio(_ a: [UInt64], _ b: [UInt64]) -> String {
            let w = BenchLatencyCommand.percentile(b, 0.5)
            return w == 0 ? "∞" : String(format: "%.1f", Double(BenchLatencyCommand.percentile(a, 0.5)) / Double(w))
        }
        print("bench engine \(trace) --cold: \(cold.engine.count) frames, each after writing through \(evictMib) MiB "
              + "(the engine with penkit's predictor, as penkitd runs it; decoding not included)")
        print("  cold: " + line(cold))
        print("  warm: " + line(warm))
        print("  cold against warm, p50: engine \(ratio(cold.engine, warm.engine))×, encoding \(ratio(cold.encoding, warm.encoding))×")
    }

    private static func microseconds(_ values: [UInt64], _ p: Double) -> String {
        String(format: "%.1f", Double(BenchLatencyCommand.percentile(values, p)) / 1000)
    }

    private func measure(_ replay: EngineReplay, _ inputs: [EngineReplay.Input]) -> EngineThroughput {
        measureInterleaved(replay, [inputs], repetitions: [1])[0]
    }

    /// The shortest span of strokes one timing covers (synthetic strokes are 200 Hz).
    static let minimumTimedSeconds = 60.0

    /// Per input, the median over `runs` rounds of the CPU time of one replay through the engine
    /// alone and through the engine and the writer; each round times every input once, as
    /// `repetitions` back-to-back replays whose time is divided among them.
    private func measureInterleaved(_ replay: EngineReplay, _ inputs: [[EngineReplay.Input]],
                                    repetitions: [Int]) -> [EngineThroughput] {
        let counts = inputs.map { input -> (frames: Int, messages: Int) in
            var frames = 0
            var messages = 0
            replay.run(input) { m in
                messages += 1
                if case .frame = m { frames += 1 }
            }
            return (frames, messages)
        }
        var engineOnly = inputs.map { _ in [Double]() }
        var encoded = inputs.map { _ in [Double]() }
        var inParts = inputs.map { _ in [Double]() }
        var writer = JSONWriter(capacity: 1 << 16)
        for _ in 0..<max(runs, 1) {
            for (i, input) in inputs.enumerated() {
                let times = Double(repetitions[i])
                engineOnly[i].append(BenchMedian.seconds(1) {
                    for _ in 0..<repetitions[i] {
                        var sink = 0
                        replay.run(input) { _ in sink &+= 1 }
                        precondition(sink == counts[i].messages)
                    }
                } / times)
                encoded[i].append(BenchMedian.seconds(1) {
                    for _ in 0..<repetitions[i] {
                        var bytes = 0
                        replay.run(input) { message in
                            writer.removeAll()
                            writer.line(message)
                            bytes &+= writer.count
                        }
                        precondition(bytes > 0)
                    }
                } / times)
                // As penkitd encodes for a client that takes parts: a long stroke's closing line
                // goes into the batch, its parts each from its own slice (PartedStroke).
                guard let points = strokePartPoints else { continue }
                inParts[i].append(BenchMedian.seconds(1) {
                    for _ in 0..<repetitions[i] {
                        var bytes = 0
                        replay.run(input) { message in
                            writer.removeAll()
                            if case .stroke(let finalized) = message, let parted = PartedStroke.encode(finalized, pointsPerPart: points) {
                                parted.head.withUnsafeBytes { writer.append($0) }
                                bytes &+= parted.partedCount
                            } else {
                                writer.line(message)
                            }
                            bytes &+= writer.count
                        }
                        precondition(bytes > 0)
                    }
                } / times)
            }
        }
        return inputs.indices.map { i in
            EngineThroughput(frames: counts[i].frames, messages: counts[i].messages, runs: runs,
                             engineOnly: BenchMedian.median(engineOnly[i]), encoded: BenchMedian.median(encoded[i]),
                             inParts: inParts[i].isEmpty ? nil : BenchMedian.median(inParts[i]))
        }
    }
}

struct EngineThroughput {
    var frames: Int
    var messages: Int
    var runs: Int
    var engineOnly: Double
    var encoded: Double
    /// Engine + encoding with long strokes in parts (`--stroke-part-points`), nil when not timed.
    var inParts: Double? = nil

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
        if let inParts {
            print("  engine + encoding, strokes in parts: \(fps(inParts)) frames/s (median of \(runs), \(BenchMedian.milliseconds(inParts)) ms CPU per replay)"
                  + ratio(inParts, { $0.inParts ?? $0.encoded }))
        }
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
        return median(seconds)
    }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        return sorted[sorted.count / 2]
    }

    static func threadCPUSeconds() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    static func milliseconds(_ s: Double) -> String { String((s * 1e5).rounded() / 100) }
}
