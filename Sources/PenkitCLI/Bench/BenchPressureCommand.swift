import ArgumentParser
import Foundation
import Glibc
import PenKit

/// `penkit bench pressure`: how long a pressure source's reading takes to reach a client as an
/// `update`. penkitd replays a trace in real time with a source attached; for each contact frame
/// expecting force, the source sends its reading at once, and a reader on another connection
/// times the `update` that carries it: from the reading's send to the update's arrival.
struct BenchPressureCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pressure",
        abstract: "Latency of a pressure source's reading to a client's update (reading sent → update received)."
    )

    @Option(help: "Trace replayed in real time.")
    var trace: String = "traces/wacom-intuos4-6x9-stylus-drag.evemu"

    @Option(help: "The penkitd binary (default: next to this penkit).")
    var penkitd: String?

    func run() throws {
        let binary = BenchDaemon.binary(penkitd)
        let daemon = try BenchDaemon(binary: binary, arguments: ["--replay", trace, "--realtime", "--wait-clients", "1",
                                                                 "--exit-after-replay"])
        defer { daemon.stop() }
        let source = try Self.attachSource(daemon.socket)
        defer { close(source) }
        let reader = try RawFrameReaders.connect(daemon.socket, channels: [.frames, .updates])
        defer { close(reader) }
        var sent: [UInt64: UInt64] = [:]  // sample time → when its reading was sent (µs)
        var latencies: [UInt64] = []
        var updatesWithoutReading = 0
        let update = Array(#"{"type":"update""#.utf8)
        let shutdown = Array(#"{"type":"shutdown""#.utf8)
        RawFrameReaders.scanLines(reader, headBytes: 1 << 16) { bytes, _ in
            let now = MonotonicClock.now()
            if bytes.starts(with: shutdown) { return false }
            let line = String(decoding: bytes, as: UTF8.self)
            if case .contactExpectingForce(let time) = FrameTimeScan(line: line) {
                let reading = PressureReading(time: time, force: 0.5).jsonLine() + "\n"
                sent[time] = MonotonicClock.now()
                _ = reading.utf8CString.withUnsafeBufferPointer { send(source, $0.baseAddress, $0.count - 1, Int32(MSG_NOSIGNAL)) }
            } else if bytes.starts(with: update), case .engine(.update(let u)) = PenMessage(line: line), u.updated.contains(.force) {
                if let at = sent.removeValue(forKey: u.sample.time) { latencies.append(now >= at ? now - at : 0) } else { updatesWithoutReading += 1 }
            }
            return true
        }
        guard !latencies.isEmpty else { throw RuntimeFailure("no reading came back as an update") }
        latencies.sort()
        func percentile(_ p: Double) -> UInt64 { latencies[min(latencies.count - 1, Int(Double(latencies.count) * p))] }
        print("pressure reading → client update, \(latencies.count) readings (\(trace), penkitd --replay --realtime): "
              + "p50 \(percentile(0.5)) µs, p99 \(percentile(0.99)) µs, max \(latencies.last ?? 0) µs")
        if !sent.isEmpty || updatesWithoutReading > 0 {
            print("  readings without an update: \(sent.count); updates without a reading: \(updatesWithoutReading)")
        }
    }

    /// A connection declared as device 1's pressure source, past penkitd's `attached` answer.
    static func attachSource(_ socket: String) throws -> Int32 {
        let fd = try RawFrameReaders.open(socket)
        let declare = PressureSourceRequest(device: 1, latency: 20_000, jitter: 10_000).jsonLine() + "\n"
        _ = declare.utf8CString.withUnsafeBufferPointer { send(fd, $0.baseAddress, $0.count - 1, Int32(MSG_NOSIGNAL)) }
        var attached = false
        RawFrameReaders.scanLines(fd, headBytes: 4096) { line, _ in
            let text = String(decoding: line, as: UTF8.self)
            if text.contains(#""type":"pressure-source""#) { attached = text.contains(#""state":"attached""#); return false }
            return !text.contains(#""type":"error""#)
        }
        guard attached else { close(fd); throw RuntimeFailure("penkitd did not attach the pressure source") }
        return fd
    }
}
