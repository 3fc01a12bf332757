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

    @Option(help: "Socket clients receiving every frame.")
    var clients: Int = 1

    @Option(help: "Trace to replay in real time.")
    var trace: String = "traces/wacom-cintiq-22hdt-pen.evemu"

    @Option(help: "Seconds of real-time replay to measure (the trace loops if shorter).")
    var seconds: Double = 20

    @Option(help: "Seconds of unpaced replay for the throughput figure.")
    var throughputSeconds: Double = 3

    @Option(help: "Samples of the machine's floor (timer wake-up and socket hand-offs without penkitd) per variant.")
    var floorSamples: Int = 500

    @Option(help: "The penkitd binary (default: next to this penkit).")
    var penkitd: String?

    @Flag(help: "Print the figures as one JSON object.")
    var json = false

    func validate() throws {
        guard clients >= 1, clients <= 64 else { throw ValidationError("--clients must be 1...64") }
        guard FileManager.default.fileExists(atPath: trace) else { throw ValidationError("no such trace: \(trace)") }
    }

    func run() async throws {
        let binary = penkitd ?? URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("penkitd").path
        // The floor first, side by side with penkitd in the same run: same readers, same pace (8 ms, the Cintiq's).
        let direct = LatencyFloor.measure(readers: clients, relay: false, count: floorSamples, intervalMicroseconds: 8_000)
        let relayed = LatencyFloor.measure(readers: clients, relay: true, count: floorSamples, intervalMicroseconds: 8_000)
        let latency = try await measureLatency(binary: binary)
        let throughput = try await measureThroughput(binary: binary)
        let cpuPercent = latency.cpuSeconds / latency.wallSeconds * 100
        if json {
            print("{\"clients\":\(clients),\"frames\":\(latency.samples.count),\"p50_us\":\(latency.percentile(0.5)),"
                + "\"p99_us\":\(latency.percentile(0.99)),\"max_us\":\(latency.samples.max() ?? 0),"
                + "\"dropped\":\(latency.dropped),\"penkitd_cpu_percent\":\(String(format: "%.2f", cpuPercent)),"
                + "\"unpaced_frames_per_s\":\(Int(throughput.framesPerSecond)),\"unpaced_dropped\":\(throughput.dropped),"
                + "\"inside_penkitd\":\(latency.probe ?? "null"),"
                + "\"floor\":{\"timer_late\":\(Self.summaryJSON(direct.timerLate)),\"direct\":\(Self.summaryJSON(direct.received)),"
                + "\"relayed\":\(Self.summaryJSON(relayed.received))}}")
        } else {
            print("trace \(trace), \(clients) client(s), \(String(format: "%.1f", latency.wallSeconds)) s real-time replay")
            print("latency source event → client receipt over \(latency.samples.count) frame deliveries: "
                + "p50 \(latency.percentile(0.5)) µs, p99 \(latency.percentile(0.99)) µs, max \(latency.samples.max() ?? 0) µs"
                + (latency.dropped > 0 ? " (\(latency.dropped) frames dropped)" : ""))
            if let probe = latency.probe { print("inside penkitd (from the frame's event time): \(Self.describeProbe(probe))") }
            print("machine floor, no penkitd, \(clients) reader thread(s), deadline → receipt: "
                + "timer wake-up late by p50 \(Self.percentile(direct.timerLate, 0.5)) µs; "
                + "sent straight to the readers p50 \(Self.percentile(direct.received, 0.5)) µs p99 \(Self.percentile(direct.received, 0.99)) µs; "
                + "through one relay thread (as via penkitd's event loop) p50 \(Self.percentile(relayed.received, 0.5)) µs p99 \(Self.percentile(relayed.received, 0.99)) µs")
            print("penkitd CPU: \(String(format: "%.2f", latency.cpuSeconds)) s in \(String(format: "%.1f", latency.wallSeconds)) s = \(String(format: "%.2f", cpuPercent)) % of one core")
            print("unpaced throughput to one client: \(Int(throughput.framesPerSecond)) frames/s"
                + " (\(throughput.frames) frames in \(String(format: "%.2f", throughput.seconds)) s, \(throughput.dropped) dropped)")
        }
    }

    static func percentile(_ values: [UInt64], _ p: Double) -> UInt64 {
        guard !values.isEmpty else { return 0 }
        let sorted = values.sorted()
        return sorted[min(sorted.count - 1, Int((Double(sorted.count) * p).rounded(.down)))]
    }

    static func summaryJSON(_ values: [UInt64]) -> String {
        "{\"n\":\(values.count),\"p50_us\":\(percentile(values, 0.5)),\"p99_us\":\(percentile(values, 0.99)),\"max_us\":\(values.max() ?? 0)}"
    }

    /// penkitd's probe line, {"stage":{"n":..,"p50_us":..,"p99_us":..}, ...}, as "stage p50/p99" pairs.
    static func describeProbe(_ json: String) -> String {
        guard let object = try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: [String: Int]] else { return json }
        return ["input_woke", "handed_to_event_loop", "written_to_sockets"].compactMap { stage in
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

    private func measureLatency(binary: String) async throws -> LatencyResult {
        let daemon = try BenchDaemon(binary: binary, arguments: ["--replay", trace, "--realtime", "--loop",
                                                                 "--wait-clients", String(clients)], probe: true)
        defer { daemon.stop() }
        let connections = try (0..<clients).map { _ in try PenKitClient(path: daemon.socket) }
        let start = DispatchTime.now()
        let cpuBefore = daemon.cpuSeconds()
        for client in connections { try client.subscribe([.frames]) }
        let deadline = monotonicMicroseconds() + UInt64(seconds * 1e6)
        let results = try await withThrowingTaskGroup(of: ([UInt64], UInt64).self) { group in
            for client in connections {
                group.addTask {
                    var samples: [UInt64] = []
                    var dropped: UInt64 = 0
                    for try await line in client.lines {
                        if line.text.hasPrefix("{\"type\":\"frame\""), let t = line.firstUnsigned("t") {
                            samples.append(line.receivedAt >= t ? line.receivedAt - t : 0)
                        } else if line.text.hasPrefix("{\"type\":\"dropped\"") {
                            dropped += line.firstUnsigned("frames") ?? 0
                        }
                        if line.receivedAt > deadline { break }
                    }
                    return (samples, dropped)
                }
            }
            var all: [([UInt64], UInt64)] = []
            for try await result in group { all.append(result) }
            return all
        }
        let cpu = daemon.cpuSeconds() - cpuBefore
        let wall = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
        for client in connections { client.disconnect() }
        daemon.stop()
        return LatencyResult(probe: daemon.probeLine(), samples: results.flatMap(\.0), dropped: results.map(\.1).reduce(0, +),
                             cpuSeconds: cpu, wallSeconds: wall)
    }

    private func measureThroughput(binary: String) async throws -> (framesPerSecond: Double, frames: Int, seconds: Double, dropped: UInt64) {
        let daemon = try BenchDaemon(binary: binary, arguments: ["--replay", trace, "--loop", "--wait-clients", "1"])
        defer { daemon.stop() }
        let client = try PenKitClient(path: daemon.socket)
        try client.subscribe([.frames])
        var frames = 0
        var dropped: UInt64 = 0
        var first: UInt64 = 0
        var last: UInt64 = 0
        for try await line in client.lines {
            if line.text.hasPrefix("{\"type\":\"frame\"") {
                if first == 0 { first = line.receivedAt }
                last = line.receivedAt
                frames += 1
            } else if line.text.hasPrefix("{\"type\":\"dropped\"") {
                dropped += line.firstUnsigned("frames") ?? 0
            }
            if first > 0, line.receivedAt - first > UInt64(throughputSeconds * 1e6) { break }
        }
        client.disconnect()
        let seconds = Double(last - first) / 1e6
        return (seconds > 0 ? Double(frames) / seconds : 0, frames, seconds, dropped)
    }
}

/// A penkitd spawned for a benchmark on a temporary socket, logging only warnings.
final class BenchDaemon {
    let process = Process()
    let socket: String
    private let directory: String

    var probePath: String { directory + "/latency-probe.json" }

    init(binary: String, arguments: [String], probe: Bool = false) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("penkit-bench-\(getpid())-\(UInt32.random(in: 0...UInt32.max))").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        socket = directory + "/penkit.sock"
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = ["--config", "/dev/null", "--socket", socket, "--state-dir", directory + "/state",
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
