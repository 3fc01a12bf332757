import ArgumentParser
import Foundation
import PenKit

/// `penkit bench latency`: a trace replayed in real time through a spawned
/// penkitd to N socket clients; latency from each frame's source event time
/// (CLOCK_MONOTONIC, as libinput stamps events) to its arrival at each client,
/// penkitd's CPU use, and unpaced throughput to one client.
struct BenchLatencyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "latency",
        abstract: "Latency and throughput of penkitd's socket (spawns its own penkitd)."
    )

    @Option(help: "Socket clients receiving every frame; repeat for several counts.")
    var clients: [Int] = [1, 8]

    @Option(help: "Trace to replay in real time.")
    var trace: String = "traces/wacom-cintiq-22hdt-pen.evemu"

    @Option(help: "Seconds of real-time replay to measure per run (the trace loops if shorter).")
    var seconds: Double = 10

    @Option(help: "Seconds of unpaced replay per throughput run.")
    var throughputSeconds: Double = 3

    @Option(help: "Runs per client count; figures are medians over them.")
    var runs: Int = 3

    @Option(help: "Samples of the machine's floor (timer wake-up, then one write to each reader thread) per run.")
    var floorSamples: Int = 1000

    @Option(help: "The penkitd binary (default: next to this penkit).")
    var penkitd: String?

    /// penkitd's warm-up lead (FrameWarmer.lead in penkitd): the floor is measured once more
    /// woken this long early, as penkitd's input thread is, to show what waking early alone gives.
    static let warmUpLead: UInt64 = 500

    func validate() throws {
        guard !clients.isEmpty, clients.allSatisfy({ $0 >= 1 && $0 <= 64 }) else { throw ValidationError("--clients must be 1...64") }
        guard runs >= 1 else { throw ValidationError("--runs must be positive") }
        guard FileManager.default.fileExists(atPath: trace) else { throw ValidationError("no such trace: \(trace)") }
    }

    func run() async throws { _ = try await measureAndPrint() }

    /// What one client count measured: medians over the runs.
    struct Figures {
        var clients: Int
        /// penkitd's and the floor's p50, p99 and max, µs.
        var penkitd: [UInt64]
        var floor: [UInt64]
        /// Unpaced frames per second to the slowest client.
        var unpaced: Double
        /// penkitd with `--no-warm-up`, and the floor woken `warmUpLead` early: p50, p99 and max.
        var withoutWarmUp: [UInt64] = []
        var earlyFloor: [UInt64] = []
    }

    /// Prints the figures and returns them per client count.
    func measureAndPrint() async throws -> [Figures] {
        var figures: [Figures] = []
        let binary = BenchDaemon.binary(penkitd)
        print("trace \(trace); per client count, \(runs) run(s) of \(seconds) s real-time replay (floor measured in each run, "
              + "same readers, same 8 ms pace) and \(throughputSeconds) s unpaced; figures are medians over the runs")
        for count in clients {
            var penkitd: [[UInt64]] = []
            var floor: [[UInt64]] = []
            var floorWoke: [UInt64] = []
            var earlyFloor: [[UInt64]] = []
            var withoutWarmUp: [[UInt64]] = []
            var withoutWarmUpCPU: [Double] = []
            var cpu: [Double] = []
            var dropped: [UInt64] = []
            var throughput: [Double] = []
            var throughputDropped: [UInt64] = []
            var throughputCPU: [Double] = []
            var probe: String?
            for _ in 0..<runs {
                // Side by side: the floor right before penkitd, with as many reader threads as clients.
                let direct = LatencyFloor.measure(readers: count, relay: false, count: floorSamples, intervalMicroseconds: 8_000)
                floor.append(Self.summary(direct.received))
                floorWoke.append(Self.percentile(direct.timerLate, 0.5))
                let latency = try await measureLatency(binary: binary, clients: count)
                penkitd.append(Self.summary(latency.samples))
                let early = LatencyFloor.measure(readers: count, relay: false, count: floorSamples, intervalMicroseconds: 8_000,
                                                 earlyWake: Self.warmUpLead)
                earlyFloor.append(Self.summary(early.received))
                let cold = try await measureLatency(binary: binary, clients: count, extra: ["--no-warm-up"])
                withoutWarmUp.append(Self.summary(cold.samples))
                withoutWarmUpCPU.append(cold.cpuSeconds / cold.wallSeconds * 100)
                probe = latency.probe
                cpu.append(latency.cpuSeconds / latency.wallSeconds * 100)
                dropped.append(latency.dropped)
                let (counted, cpuPerFrame) = try measureThroughput(binary: binary, clients: count)
                // The slowest client's rate: every client gets at least this many frames per second.
                throughput.append(counted.map(\.framesPerSecond).min() ?? 0)
                throughputDropped.append(counted.map(\.dropped).reduce(0, +))
                throughputCPU.append(cpuPerFrame)
            }
            let p = Self.medians(penkitd)
            let f = Self.medians(floor)
            print("\(count) client(s): penkitd p50 \(p[0]) µs p99 \(p[1]) µs max \(p[2]) µs; floor p50 \(f[0]) µs p99 \(f[1]) µs max \(f[2]) µs; "
                  + "ratio to the floor p50 \(Self.ratio(p[0], f[0]))× p99 \(Self.ratio(p[1], f[1]))× max \(Self.ratio(p[2], f[2]))×")
            print("  latency runs (p50/p99/max µs): penkitd " + penkitd.map { "\($0[0])/\($0[1])/\($0[2])" }.joined(separator: ", ")
                  + "; floor " + floor.map { "\($0[0])/\($0[1])/\($0[2])" }.joined(separator: ", ")
                  + "; frames dropped \(dropped.map(String.init).joined(separator: ", "))")
            let cold = Self.medians(withoutWarmUp)
            print("  penkitd --no-warm-up, in the same runs: p50 \(cold[0]) µs p99 \(cold[1]) µs max \(cold[2]) µs; "
                  + "ratio to the floor p50 \(Self.ratio(cold[0], f[0]))× p99 \(Self.ratio(cold[1], f[1]))×; CPU "
                  + String(format: "%.1f", Self.median(withoutWarmUpCPU)) + " % of one core")
            let e = Self.medians(earlyFloor)
            print("  the floor woken \(Self.warmUpLead) µs early as well, as penkitd is for a warm-up (no work done): p50 \(e[0]) µs "
                  + "p99 \(e[1]) µs max \(e[2]) µs; penkitd against it p50 \(Self.ratio(p[0], e[0]))× p99 \(Self.ratio(p[1], e[1]))×")
            if let probe { print("  inside penkitd, last run (from the frame's event time): \(Self.describeProbe(probe))") }
            print("  the floor's own timer wake-up: p50 \(Self.percentile(floorWoke, 0.5)) µs after its deadline (median of the runs)")
            print("  penkitd CPU in the real-time replay: " + String(format: "%.1f", Self.median(cpu)) + " % of one core")
            print("  unpaced throughput to each of \(count) client(s): \(Int(Self.median(throughput))) frames/s (slowest client, median of "
                  + "\(throughput.map { String(Int($0)) }.joined(separator: ", ")); frames dropped \(throughputDropped.map(String.init).joined(separator: ", ")))")
            let perFrame = Self.median(throughputCPU)
            print("  penkitd CPU per frame produced, unpaced: " + String(format: "%.2f", perFrame * 1e6) + " µs (median of "
                  + throughputCPU.map { String(format: "%.2f", $0 * 1e6) }.joined(separator: ", ") + "): "
                  + "\(perFrame > 0 ? Int(1 / perFrame) : 0) frames/s on a core of its own")
            figures.append(Figures(clients: count, penkitd: p, floor: f, unpaced: Self.median(throughput),
                                   withoutWarmUp: cold, earlyFloor: e))
        }
        return figures
    }

    static func summary(_ values: [UInt64]) -> [UInt64] {
        [percentile(values, 0.5), percentile(values, 0.99), values.max() ?? 0]
    }

    static func medians(_ rows: [[UInt64]]) -> [UInt64] {
        (0..<3).map { i in percentile(rows.map { $0[i] }, 0.5) }
    }

    static func median(_ values: [Double]) -> Double {
        values.isEmpty ? 0 : values.sorted()[values.count / 2]
    }

    static func ratio(_ a: UInt64, _ b: UInt64) -> String {
        b == 0 ? "∞" : String(format: "%.2f", Double(a) / Double(b))
    }

    static func percentile(_ values: [UInt64], _ p: Double) -> UInt64 {
        guard !values.isEmpty else { return 0 }
        let sorted = values.sorted()
        return sorted[min(sorted.count - 1, Int((Double(sorted.count) * p).rounded(.down)))]
    }

    /// penkitd's probe line, {"stage":{"n":..,"p50_us":..,"p99_us":..}, ...}, as "stage p50/p99" pairs.
    static func describeProbe(_ json: String) -> String {
        guard let object = try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: [String: Int]] else { return json }
        return ["input_woke", "decoded", "engine_done", "encoded", "written_to_sockets"].compactMap { stage in
            object[stage].map { "\(stage.replacingOccurrences(of: "_", with: " ")) p50 \($0["p50_us"] ?? 0) µs p99 \($0["p99_us"] ?? 0) µs" }
        }.joined(separator: "; ")
    }

    struct LatencyResult {
        var probe: String?
        var samples: [UInt64]
        var dropped: UInt64
        var cpuSeconds: Double
        var wallSeconds: Double
        func percentile(_ p: Double) -> UInt64 {
            guard !samples.isEmpty else { return 0 }
            let sorted = samples.sorted()
            return sorted[min(sorted.count - 1, Int((Double(sorted.count) * p).rounded(.down)))]
        }
    }

    /// The clients are plain reader threads, as the floor's are (a client library's own hops
    /// between threads would be measured otherwise, not penkitd).
    func measureLatency(binary: String, clients: Int, extra: [String] = []) async throws -> LatencyResult {
        let daemon = try BenchDaemon(binary: binary, arguments: ["--replay", trace, "--realtime", "--loop",
                                                                 "--wait-clients", String(clients)] + extra, probe: extra.isEmpty)
        defer { daemon.stop() }
        let start = DispatchTime.now()
        let cpuBefore = daemon.cpuSeconds()
        let deadline = MonotonicClock.now() + UInt64(seconds * 1e6)
        let results = try RawFrameReaders.latencies(socket: daemon.socket, readers: clients, until: deadline)
        let cpu = daemon.cpuSeconds() - cpuBefore
        let wall = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
        daemon.stop()
        return LatencyResult(probe: daemon.probeLine(), samples: results.flatMap(\.samples),
                             dropped: results.map(\.dropped).reduce(0, +), cpuSeconds: cpu, wallSeconds: wall)
    }

    /// The readers' counts, and penkitd's CPU time over the run per frame it produced (sent or
    /// dropped): what the machine's other load cannot change.
    func measureThroughput(binary: String, clients: Int, extra: [String] = []) throws -> (counts: [RawFrameReaders.Count], cpuPerFrame: Double) {
        let daemon = try BenchDaemon(binary: binary, arguments: ["--replay", trace, "--loop", "--wait-clients", String(clients)] + extra)
        defer { daemon.stop() }
        let before = daemon.cpuSeconds()
        let counts = try RawFrameReaders.measure(socket: daemon.socket, readers: clients, seconds: throughputSeconds)
        let cpu = daemon.cpuSeconds() - before
        let produced = counts.map { $0.frames + Int($0.dropped) }.max() ?? 0
        return (counts, produced > 0 ? cpu / Double(produced) : 0)
    }
}

/// A penkitd spawned for a benchmark on a temporary socket, logging only warnings.
final class BenchDaemon {
    let process = Process()
    let socket: String
    private let directory: String

    var probePath: String { directory + "/latency-probe.json" }
    /// Its state directory (journal), until the object goes away.
    var stateDirectory: String { directory + "/state" }

    /// The penkitd a benchmark runs: the one given, else the one next to this penkit.
    static func binary(_ given: String?) -> String {
        given ?? URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("penkitd").path
    }

    /// `stateDirectory`: another daemon's (`stateDirectory`), to start on its journal; default, one of its own.
    init(binary: String, arguments: [String], probe: Bool = false, stateDirectory: String? = nil) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("penkit-bench-\(getpid())-\(UInt32.random(in: 0...UInt32.max))").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        socket = directory + "/penkit.sock"
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = ["--config", "/dev/null", "--socket", socket, "--state-dir", stateDirectory ?? directory + "/state",
                             "--log-level", "warning"] + arguments
            + (probe ? ["--latency-probe", probePath] : [])
        try process.run()
        let deadline = Date().addingTimeInterval(30)
        while !FileManager.default.fileExists(atPath: socket) {
            guard process.isRunning, Date() < deadline else { throw RuntimeFailure("penkitd did not start (\(binary))") }
            usleep(10_000)
        }
    }

    /// utime + stime of the process, from /proc.
    func cpuSeconds() -> Double {
        guard let stat = try? String(contentsOfFile: "/proc/\(process.processIdentifier)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return 0 }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        // After the command name: state is field 3, utime 14, stime 15 (1-based in proc(5)).
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return 0 }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// What penkitd's latency probe wrote when it stopped (after `stop`).
    func probeLine() -> String? {
        (try? String(contentsOfFile: probePath, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Stops penkitd; its probe file stays readable until the object goes away.
    func stop() {
        if process.isRunning {
            kill(process.processIdentifier, SIGTERM)
            process.waitUntilExit()
        }
    }

    deinit { try? FileManager.default.removeItem(atPath: directory) }
}
