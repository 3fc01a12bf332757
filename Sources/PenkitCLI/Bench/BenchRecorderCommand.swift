import ArgumentParser
import Foundation

/// `penkit bench recorder`: what penkitd's flight recorder costs, measured side by side in each run
/// with it on (penkitd's default, 60 s) and off (`--flight-recorder 0`): latency to 8 clients of a
/// real-time replay, unpaced throughput and penkitd's CPU per frame, and resident memory after a
/// million frames. `bench dataplane` ends with it.
struct BenchRecorderCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "recorder",
        abstract: "The flight recorder's cost: latency, throughput and memory with it on and off, side by side."
    )

    @Option(help: "Runs; each measures on and off one after the other. Figures are medians over the runs.")
    var runs = 3

    @Option(help: "Seconds of real-time replay per latency measurement.")
    var seconds: Double = 5

    @Option(help: "Frames to one client before reading penkitd's memory.")
    var frames = 1_000_000

    @Option(help: "The penkitd binary (default: next to this penkit).")
    var penkitd: String?

    func run() async throws { _ = try await measureAndPrint() }

    /// Prints the figures and returns the median RSS (KiB) after the frames with the recorder on and off.
    func measureAndPrint() async throws -> (on: Int, off: Int) {
        let binary = BenchDaemon.binary(penkitd)
        let latency = try BenchLatencyCommand.parse(["--clients", "8", "--seconds", String(seconds)])
        let settings: [(name: String, extra: [String])] = [("on (60 s)", []), ("off", ["--flight-recorder", "0"])]
        var p50: [[UInt64]] = [[], []], p99: [[UInt64]] = [[], []]
        var fps: [[Double]] = [[], []], cpu: [[Double]] = [[], []], rss: [[UInt64]] = [[], []]
        print("the flight recorder on and off, \(runs) run(s), each measuring both one after the other (\(latency.trace))")
        for _ in 0..<runs {
            for (index, setting) in settings.enumerated() {
                let result = try await latency.measureLatency(binary: binary, clients: 8, extra: setting.extra)
                let summary = BenchLatencyCommand.summary(result.samples)
                p50[index].append(summary[0])
                p99[index].append(summary[1])
                let (counts, cpuPerFrame) = try latency.measureThroughput(binary: binary, clients: 1, extra: setting.extra)
                fps[index].append(counts.map(\.framesPerSecond).min() ?? 0)
                cpu[index].append(cpuPerFrame * 1e6)
                let daemon = try BenchDaemon(binary: binary, arguments: ["--replay", latency.trace, "--loop", "--wait-clients", "1"] + setting.extra)
                _ = try RawFrameReaders.measure(socket: daemon.socket, readers: 1, seconds: .infinity, frames: frames)
                rss[index].append(UInt64(daemon.settledMemory().rss))
                daemon.stop()
            }
        }
        for (index, setting) in settings.enumerated() {
            print("recorder \(setting.name): latency to 8 clients p50 \(median(p50[index])) µs "
                  + "p99 \(median(p99[index])) µs; unpaced \(Int(BenchLatencyCommand.median(fps[index]))) frames/s, penkitd CPU "
                  + String(format: "%.2f", BenchLatencyCommand.median(cpu[index])) + " µs a frame; RSS after \(frames) frames "
                  + BenchRSSCommand.size(Int(median(rss[index]))))
        }
        let onCPU = BenchLatencyCommand.median(cpu[0]), offCPU = BenchLatencyCommand.median(cpu[1])
        print("on against off: p50 \(BenchLatencyCommand.ratio(median(p50[0]), median(p50[1])))×, p99 "
              + "\(BenchLatencyCommand.ratio(median(p99[0]), median(p99[1])))×, CPU a frame "
              + String(format: "%.2f×", offCPU > 0 ? onCPU / offCPU : 0) + ", RSS "
              + String(format: "%+.1f MiB", (Double(median(rss[0])) - Double(median(rss[1]))) / 1024))
        return (Int(median(rss[0])), Int(median(rss[1])))
    }

    private func median(_ values: [UInt64]) -> UInt64 { BenchLatencyCommand.percentile(values, 0.5) }
}
