import Foundation
import PenInput
import Testing

/// `penkitd --latency-probe FILE` (what `penkit bench latency` reads): one record per
/// paced input wake-up and decoded report, and per frame at each later stage (made by the
/// engine, encoded, written), written when penkitd stops.
@Suite struct LatencyProbeTests {
    @Test func aRealTimeReplayRecordsEveryReportAndFrame() throws {
        let trace = "wacom-intuos4-6x9-stylus-tap.evemu"
        let loaded = try TraceFile.load(path: tracePath(trace))
        // The replay sleeps until each SYN_REPORT is due: one wake-up per report in the trace.
        let reports = loaded.devices[0].events.filter { $0.type == 0 && $0.code == 0 }.count
        let probePath = FileManager.default.temporaryDirectory.appendingPathComponent("probe-\(UUID().uuidString).json").path
        defer { try? FileManager.default.removeItem(atPath: probePath) }
        let daemon = try DaemonProcess(["--replay", tracePath(trace), "--realtime", "--exit-after-replay",
                                        "--latency-probe", probePath])
        #expect(daemon.waitForExit(timeout: 60) == 0, "log:\n\(daemon.log)")

        let data = try Data(contentsOf: URL(fileURLWithPath: probePath))
        let stages = try #require(try JSONSerialization.jsonObject(with: data) as? [String: [String: Int]])
        let woke = try #require(stages["input_woke"]), handed = try #require(stages["encoded"])
        let written = try #require(stages["written_to_sockets"])
        let decoded = try #require(stages["decoded"]), engine = try #require(stages["engine_done"])
        #expect(woke["n"] == reports)
        #expect(decoded["n"] == reports)
        #expect((handed["n"] ?? 0) > 0)
        // Every frame the engine makes is encoded and written: the same frames at each stage.
        #expect(engine["n"] == handed["n"])
        #expect(written["n"] == handed["n"])
        #expect((engine["p50_us"] ?? 0) <= (handed["p50_us"] ?? 0))
        #expect((engine["max_us"] ?? 0) <= (handed["max_us"] ?? 0))
        // Each frame is written after it was encoded, so every percentile keeps that order.
        #expect((handed["p50_us"] ?? 0) <= (written["p50_us"] ?? 0))
        #expect((handed["max_us"] ?? 0) <= (written["max_us"] ?? 0))
        for stage in [woke, decoded, engine, handed, written] {
            #expect((stage["p50_us"] ?? 0) <= (stage["p99_us"] ?? 0))
            #expect((stage["p99_us"] ?? 0) <= (stage["max_us"] ?? 0))
        }
    }
}
