import Foundation
import PenInput
import PenTestSupport
import Testing

/// `status` (what `penkit doctor` shows of a running penkitd), from a spawned penkitd replaying a
/// real trace at its recorded pace under a config file with device, tool and ink settings: the
/// report rate is the trace's own (one over the median spacing of its frames), the pen is seen in
/// proximity and touching, each setting names the line that set it (then "reload" after a
/// SIGHUP, and "flag" for a flag), and the answer validates against the schema.
@Suite(.serialized)
struct DaemonStatusTests {
    static let trace = "wacom-intuos4-6x9-stylus-drag.evemu"

    /// The trace's frame spacings and its pen's serial, read from the evemu text itself.
    static func truth() throws -> (rateHz: Double, serial: UInt64) {
        var times: [Double] = []
        var serial: UInt64 = 0
        for line in try String(contentsOfFile: tracePath(trace), encoding: .utf8).split(separator: "\n") where line.hasPrefix("E: ") {
            let f = line.split(separator: " ")
            if f[2] == "0000" && f[3] == "0000", let t = Double(f[1]) { times.append(t) }
            if f[2] == "0004" && f[3] == "0000", let v = Int64(f[4]), v != 0 { serial = UInt64(UInt32(truncatingIfNeeded: v)) }
        }
        let spacings = zip(times, times.dropFirst()).map { $1 - $0 }.filter { $0 > 0 }.sorted()
        return (1 / spacings[spacings.count / 2], serial)
    }

    static func status(_ daemon: DaemonProcess) throws -> (line: String, object: [String: Any]) {
        let connection = try daemon.connect()
        #expect(type(try connection.readLine() ?? "") == "hello")
        try connection.send("{\"type\":\"status\",\"version\":1}\n")
        let line = try #require(try connection.read(until: { type($0) == "status" || type($0) == "error" }, timeout: 30).last)
        return (line, object(line))
    }

    static func settings(_ list: Any?) -> [String: (value: String, origin: String)] {
        var out: [String: (String, String)] = [:]
        for case let s as [String: Any] in (list as? [Any]) ?? [] {
            out[s["key"] as? String ?? ""] = (s["value"] as? String ?? "", s["origin"] as? String ?? "")
        }
        return out
    }

    @Test func statusGivesTheTracesReportRateTheProximityAndEachSettingsOrigin() throws {
        let (rate, serial) = try Self.truth()
        #expect(serial != 0, "the trace names its pen's serial")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("penkit-status-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let config = directory + "/penkitd.conf"
        let lines = [
            "# status test",                                             // 1
            "ink-serial-\(serial) = marker ff0000 4",                    // 2
            "[device *]",                                                // 3
            "rotation = 90",                                             // 4
            "[tool pen]",                                                // 5
            "pressure-curve = 0.2, 0.1, 0.8, 0.9",                       // 6
            "pressure-min = 0.05",                                       // 7
            "[tool serial 0x\(String(serial, radix: 16))]",              // 8
            "pressure-min = 0.1",                                        // 9
        ]
        try (lines.joined(separator: "\n") + "\n").write(toFile: config, atomically: true, encoding: .utf8)
        let daemon = try DaemonProcess(["--replay", tracePath(Self.trace), "--realtime", "--loop", "--flight-recorder", "0"], config: config)
        defer { _ = daemon.stop() }

        // Asked until the pen has reported for a while and is touching: the drag spends most of
        // its time in contact, and the loop brings it back.
        var answer: [String: Any] = [:]
        var raw = ""
        var device: [String: Any] = [:]
        let deadline = Date().addingTimeInterval(120)
        repeat {
            (raw, answer) = try Self.status(daemon)
            device = ((answer["devices"] as? [[String: Any]]) ?? []).first ?? [:]
            if (device["reports"] as? Int ?? 0) > 100, device["proximity"] as? String == "in", device["contact"] as? Bool == true { break }
            usleep(50_000)
        } while Date() < deadline
        #expect(type(raw) == "status", "\(raw)")
        let (schema, report) = try ProtocolSchemaCheck.run([raw])
        #expect(schema == 0, "\(report)")
        #expect(device["proximity"] as? String == "in" && device["contact"] as? Bool == true, "\(device)")
        #expect(device["tool"] as? String == "pen" && (device["serial"] as? NSNumber)?.uint64Value == serial, "\(device)")
        let measured = try #require(device["reportRateHz"] as? Double)
        #expect(abs(measured - rate) / rate < 0.01, "report rate \(measured) Hz against the trace's \(rate) Hz")
        #expect((device["lastReportAgeMilliseconds"] as? Double ?? -1) >= 0, "a paced replay says how long ago the last report came")

        // Where each value came from: the line that set it, or the default.
        #expect(answer["configFile"] as? String == config)
        let mapping = Self.settings(device["settings"])
        #expect(mapping["rotation"]?.value == "90" && mapping["rotation"]?.origin == "config file \(config):4", "\(mapping)")
        #expect(mapping["area"]?.origin == "default", "\(mapping)")
        let tool = try #require((device["tools"] as? [[String: Any]])?.first { ($0["serial"] as? NSNumber)?.uint64Value == serial })
        let feel = Self.settings(tool["settings"])
        #expect(feel["pressure-curve"]?.value == "0.2, 0.1, 0.8, 0.9" && feel["pressure-curve"]?.origin == "config file \(config):6", "\(feel)")
        #expect(feel["pressure-min"]?.value == "0.1" && feel["pressure-min"]?.origin == "config file \(config):9",
                "the serial's section wins over the type's: \(feel)")
        #expect(feel["pressure-max"]?.origin == "default", "\(feel)")
        #expect(feel["ink"]?.value.hasPrefix("marker #ff0000ff 4") == true && feel["ink"]?.origin == "config file \(config):2", "\(feel)")
        let daemonWide = Self.settings(answer["settings"])
        #expect(daemonWide["flight-recorder"]?.value == "0" && daemonWide["flight-recorder"]?.origin == "flag --flight-recorder", "\(daemonWide)")
        #expect(daemonWide["smoothing"]?.origin == "default", "\(daemonWide)")

        // A reload: the same values, now read by the SIGHUP, with a line moved.
        try (["# status test, edited", "#"] + lines.dropFirst()).joined(separator: "\n").appending("\n")
            .write(toFile: config, atomically: true, encoding: .utf8)
        daemon.signal(SIGHUP)
        var reloaded: [String: (value: String, origin: String)] = [:]
        let reloadDeadline = Date().addingTimeInterval(60)
        repeat {
            let device = ((try Self.status(daemon).object["devices"] as? [[String: Any]]) ?? []).first ?? [:]
            reloaded = Self.settings(device["settings"])
            if reloaded["rotation"]?.origin.hasPrefix("reload") == true { break }
            usleep(50_000)
        } while Date() < reloadDeadline
        #expect(reloaded["rotation"]?.origin == "reload \(config):5", "\(reloaded)")
    }

    @Test func aMalformedStatusRequestGetsAnErrorAndTheConnectionStaysUsable() throws {
        let daemon = try DaemonProcess(["--replay", tracePath(Self.trace), "--wait-clients", "1"])
        defer { _ = daemon.stop() }
        let connection = try daemon.connect()
        #expect(type(try connection.readLine() ?? "") == "hello")
        try connection.send("{\"type\":\"status\",\"version\":9}\n")
        let error = try #require(try connection.read(until: { type($0) == "error" }, timeout: 30).last)
        #expect(object(error)["code"] as? String == "unsupported_version", "\(error)")
        try connection.send("{\"type\":\"status\",\"version\":1}\n")
        let status = try #require(try connection.read(until: { type($0) == "status" }, timeout: 30).last)
        #expect(((object(status)["devices"] as? [Any]) ?? []).count == 1, "the replay's tablet, before any client subscribed: \(status)")
    }
}
