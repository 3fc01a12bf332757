import ArgumentParser
import Foundation
import PenKit

/// `penkit bench journal`: what the stroke journal's fsync policy costs. A spawned penkitd replays
/// a trace unpaced to one strokes client, once per policy per round (policies interleaved, so the
/// host's noise falls on all of them); the figure is the time from subscribing until the client
/// has every stroke, median over rounds, and the extra per stroke over running without a journal.
struct BenchJournalCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "journal",
        abstract: "Cost of the stroke journal's fsync policies (spawns its own penkitd)."
    )

    @Option(help: "Trace to replay unpaced.")
    var trace: String = "traces/wacom-cintiq-22hdt-pen.evemu"

    @Option(help: "Rounds (each runs every policy once).")
    var rounds: Int = 5

    @Option(help: "Where the journal is written (a directory on the disk to measure; default: a temporary one).")
    var directory: String?

    @Option(help: "The penkitd binary (default: next to this penkit).")
    var penkitd: String?

    func validate() throws {
        guard (1...100).contains(rounds) else { throw ValidationError("--rounds takes 1...100") }
        guard FileManager.default.fileExists(atPath: trace) else { throw ValidationError("no such trace: \(trace)") }
    }

    static let policies: [(name: String, arguments: [String])] = [
        ("no journal", ["--no-journal"]),
        ("never", ["--journal-fsync", "never"]),
        ("interval", ["--journal-fsync", "interval"]),
        ("always", ["--journal-fsync", "always"]),
    ]

    func run() async throws {
        let binary = BenchDaemon.binary(penkitd)
        var seconds = Array(repeating: [Double](), count: Self.policies.count)
        var strokes = 0
        for _ in 0..<rounds {
            for (index, policy) in Self.policies.enumerated() {
                let run = try await measure(binary: binary, policy: policy.arguments)
                seconds[index].append(run.seconds)
                strokes = run.strokes
            }
        }
        guard strokes > 0 else {
            throw ValidationError("no stroke reached the client from \(trace) (a trace without strokes, or one so long that penkitd "
                                  + "stopped after the replay before the client took it): nothing to time")
        }
        let medians = seconds.map { $0.sorted()[$0.count / 2] }
        print("trace \(trace): \(strokes) strokes replayed unpaced to one client; median of \(rounds) rounds, policies interleaved")
        print("journal directory: \(directory ?? "a temporary directory (\(FileManager.default.temporaryDirectory.path))")")
        for (index, policy) in Self.policies.enumerated() {
            let extra = (medians[index] - medians[0]) / Double(max(strokes, 1)) * 1000
            let name = policy.name.padding(toLength: 11, withPad: " ", startingAt: 0)
            print("  " + name + String(format: "%8.1f ms for all strokes   %.2fx no journal   %+.3f ms per stroke",
                                       medians[index] * 1000, medians[index] / medians[0], extra))
        }
    }

    private func measure(binary: String, policy: [String]) async throws -> (seconds: Double, strokes: Int) {
        let state = (directory ?? FileManager.default.temporaryDirectory.path) + "/penkit-bench-journal-\(UInt32.random(in: 0...UInt32.max))"
        defer { try? FileManager.default.removeItem(atPath: state) }
        let daemon = try BenchDaemon(binary: binary, arguments: ["--replay", trace, "--wait-clients", "1", "--exit-after-replay",
                                                                 "--state-dir", state] + policy)
        defer { daemon.stop() }
        let client = try PenKitClient(path: daemon.socket)
        let start = MonotonicClock.now()
        try client.subscribe([.strokes])
        var strokes = 0
        var last = start
        for try await line in client.lines {
            if line.text.hasPrefix("{\"type\":\"stroke\"") { strokes += 1; last = line.receivedAt }
            if line.text.hasPrefix("{\"type\":\"shutdown\"") { break }
        }
        client.disconnect()
        return (Double(last - start) / 1e6, strokes)
    }
}
