import ArgumentParser
import Foundation
import PenKit

/// `penkit bench dataplane`: issue #10's whole table from one run. It runs `bench latency`
/// (1 and 8 clients), `bench engine` on synthetic strokes of 1, 60 and 600 s, `bench engine
/// --cold` on the latency trace (what the frames cost from cold caches, which the latency ratio
/// pays and the throughputs do not) and `bench rss` with their defaults, each printing its own
/// figures as it goes, then sets their results against the targets.
struct BenchDataPlaneCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dataplane",
        abstract: "Latency, throughput, engine + encoding and memory in one run, against issue #10's targets."
    )

    @Option(help: "The penkitd binary (default: next to this penkit).")
    var penkitd: String?

    func run() async throws {
        let daemon = penkitd.map { ["--penkitd", $0] } ?? []
        let latency = try await BenchLatencyCommand.parse(daemon).measureAndPrint()
        print("")
        let engine = try BenchEngineCommand.parse(["--synthetic-stroke", "1", "--synthetic-stroke", "60",
                                                   "--synthetic-stroke", "600", "--runs", "9",
                                                   "--stroke-part-points", "\(PartedStroke.defaultPointsPerPart)"]).measureAndPrint()
        print("")
        _ = try BenchEngineCommand.parse([try BenchLatencyCommand.parse([]).trace, "--cold"]).measureAndPrint()
        print("")
        let memory = try BenchRSSCommand.parse(daemon).measureAndPrint()
        print("")
        // Issue #31: the flight recorder (on by default, as in every figure above) against it off.
        let recorder = try await BenchRecorderCommand.parse(daemon).measureAndPrint()
        print("")
        print("issue #10's targets, from this run:")
        for line in Self.verdicts(latency: latency, engine: engine, memory: memory) { print("  " + line) }
        print("issue #44's, from this run:")
        for line in Self.leanVerdicts(defaults: memory.afterFrames, recorderOff: recorder.off) { print("  " + line) }
    }

    /// Issue #44 item 5: penkitd's RSS after 10⁶ frames with the defaults (the flight recorder on,
    /// 60 s) within 24 MiB, and with the recorder off within 20 MiB.
    static func leanVerdicts(defaults: Int, recorderOff: Int) -> [String] {
        [("with the defaults", defaults, 24), ("with the flight recorder off", recorderOff, 20)].map { name, kibibytes, limit in
            "penkitd RSS after 10⁶ frames \(name): " + String(format: "%.1f MiB", Double(kibibytes) / 1024)
                + " (≤ \(limit) MiB): " + (kibibytes <= limit * 1024 ? "met" : "NOT met")
        }
    }

    static func verdicts(latency: [BenchLatencyCommand.Figures], engine: [EngineThroughput],
                         memory: BenchRSSCommand.Memory) -> [String] {
        var lines: [String] = []
        func verdict(_ met: Bool) -> String { met ? "met" : "NOT met" }
        if let eight = latency.first(where: { $0.clients == 8 }) {
            for (index, name) in [(0, "p50"), (1, "p99")] {
                let ratio = eight.floor[index] > 0 ? Double(eight.penkitd[index]) / Double(eight.floor[index]) : .infinity
                lines.append("latency, 8 clients, \(name): \(eight.penkitd[index]) µs, floor \(eight.floor[index]) µs: "
                             + String(format: "%.2f×", ratio) + " (≤ 1.25×): \(verdict(ratio <= 1.25))")
            }
            // Not the floor, so no verdict: how much of the ratio waking early alone explains.
            if eight.earlyFloor.count == 3, eight.withoutWarmUp.count == 3 {
                lines.append("  (for comparison: the floor woken \(BenchLatencyCommand.warmUpLead) µs early as well, p50 \(eight.earlyFloor[0]) µs "
                             + "p99 \(eight.earlyFloor[1]) µs, penkitd against it p50 \(BenchLatencyCommand.ratio(eight.penkitd[0], eight.earlyFloor[0]))× "
                             + "p99 \(BenchLatencyCommand.ratio(eight.penkitd[1], eight.earlyFloor[1]))×; penkitd --no-warm-up p50 "
                             + "\(BenchLatencyCommand.ratio(eight.withoutWarmUp[0], eight.floor[0]))× p99 "
                             + "\(BenchLatencyCommand.ratio(eight.withoutWarmUp[1], eight.floor[1]))× the floor)")
            }
        }
        for (clients, target) in [(1, 200_000.0), (8, 100_000.0)] {
            if let figures = latency.first(where: { $0.clients == clients }) {
                lines.append("unpaced to each of \(clients) client(s): \(Int(figures.unpaced)) frames/s (≥ \(Int(target))): "
                             + verdict(figures.unpaced >= target))
            }
        }
        let rates = engine.map { $0.fps($0.encoded) }
        if let first = rates.first, let last = rates.last {
            lines.append("engine + encoding, 1 / 60 / 600 s: " + rates.map(String.init).joined(separator: " / ")
                         + " frames/s (each ≥ 300000): " + verdict(rates.allSatisfy { $0 >= 300_000 }))
            let ratio = Double(last) / Double(max(first, 1))
            lines.append("engine + encoding, 600 s against 1 s: " + String(format: "%.2f×", ratio) + " (≥ 0.8×): " + verdict(ratio >= 0.8))
        }
        // Issue #32: the same with the stroke encoded in parts, as penkitd does for long strokes.
        let partRates = engine.compactMap { $0.inParts.map($0.fps) }
        if partRates.count == rates.count, let first = partRates.first, let last = partRates.last {
            let ratio = Double(last) / Double(max(first, 1))
            lines.append("engine + encoding in parts, 1 / 60 / 600 s: " + partRates.map(String.init).joined(separator: " / ")
                         + " frames/s; 600 s against 1 s: " + String(format: "%.2f×", ratio) + " (≥ 0.9×): " + verdict(ratio >= 0.9))
        }
        let steady = Double(max(memory.afterFrames, 1))
        for (name, peak) in [("whole", memory.strokePeakWhole), ("in parts", memory.strokePeakParts)] {
            let ratio = Double(peak) / steady
            lines.append("penkitd peak finalizing a 600 s stroke \(name): " + String(format: "%.1f MiB, %.1f× the steady %.1f MiB",
                         Double(peak) / 1024, ratio, steady / 1024) + (name == "in parts" ? " (≤ 2×): " + verdict(ratio <= 2) : ""))
        }
        for (name, kibibytes) in [("after 10⁶ frames", memory.afterFrames), ("after a restart on its journal", memory.afterRestart),
                                  ("after one 600 s stroke", memory.afterStroke)] {
            let megabytes = Double(kibibytes) * 1024 / 1e6
            lines.append("penkitd RSS \(name): " + String(format: "%.1f MB", megabytes) + " (≤ 40 MB): " + verdict(megabytes <= 40))
        }
        return lines
    }
}
