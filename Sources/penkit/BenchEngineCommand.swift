import ArgumentParser
import PenEngine
import PenInput
import PenKit

/// `penkit bench engine TRACE`: stroke-engine throughput on an already decoded
/// trace, in frames per second (median of several runs), with and without
/// encoding every message to its JSON line.
struct BenchEngineCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "engine",
        abstract: "Median stroke-engine throughput in frames per second on a trace."
    )

    @Argument(help: "The trace to replay (the largest shared one is traces/wacom-cintiq-22hdt-pen.evemu).")
    var trace: String

    @Option(help: "How many timed runs.")
    var runs = 9

    @Option(help: "Move pressure into a delayed second stream, MS[±JITTER].")
    var latePressure: String?

    func run() throws {
        let inputs = try decodeForEngine(trace, options: DecoderOptions())
        var late: LatePressure?
        if let text = latePressure {
            guard let parsed = LatePressure(parsing: text) else { throw ValidationError("bad --late-pressure \(text)") }
            late = parsed
        }
        let replay = EngineReplay(latePressure: late)
        var frames = 0
        var messages = 0
        replay.run(inputs) { m in
            messages += 1
            if case .frame = m { frames += 1 }
        }
        let engineOnly = median(runs) {
            var sink = 0
            replay.run(inputs) { _ in sink &+= 1 }
            precondition(sink == messages)
        }
        let withJSON = median(runs) {
            var bytes = 0
            replay.run(inputs) { bytes &+= $0.jsonLine().utf8.count }
            precondition(bytes > 0)
        }
        let fps = { (seconds: Double) in Int((Double(frames) / seconds).rounded()) }
        print("bench engine \(trace): \(inputs.count) tablet events → \(frames) frames, \(messages) messages"
              + (late.map { ", late pressure \($0.latency / 1000)±\($0.jitter / 1000) ms" } ?? ""))
        print("  engine only:       \(fps(engineOnly)) frames/s (median of \(runs), \(milliseconds(engineOnly)) ms per replay)")
        print("  engine + JSON:     \(fps(withJSON)) frames/s (median of \(runs), \(milliseconds(withJSON)) ms per replay)")
    }

    private func median(_ runs: Int, _ body: () -> Void) -> Double {
        var seconds: [Double] = []
        for _ in 0..<max(runs, 1) {
            let start = ContinuousClock.now
            body()
            let d = ContinuousClock.now - start
            seconds.append(Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18)
        }
        seconds.sort()
        return seconds[seconds.count / 2]
    }

    private func milliseconds(_ s: Double) -> String { String((s * 1e5).rounded() / 100) }
}
