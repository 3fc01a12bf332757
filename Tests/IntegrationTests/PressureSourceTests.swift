import Foundation
import PenKit
import PenTestSupport
import Testing

/// penkitd's producer role with a spawned penkitd and real sockets: a source attached to a
/// device turns its contact samples into force estimates that expect readings; readings,
/// timeouts and misbehaving sources do what docs/protocol.md says, and nobody else notices.
@Suite(.serialized) struct PressureSourceTests {
    static let drag = "wacom-intuos4-6x9-stylus-drag.evemu"
    static let tap = "wacom-intuos4-6x9-stylus-tap.evemu"
    static let penkit = URL(fileURLWithPath: penkitdPath).deletingLastPathComponent().appendingPathComponent("penkit").path

    static func declaration(device: Int = 1, latency: Int = 20_000, jitter: Int = 10_000) -> String {
        "{\"type\":\"pressure-source\",\"version\":1,\"device\":\(device),\"latency\":\(latency),\"jitter\":\(jitter)}\n"
    }

    /// A connection declared as device 1's source, past its `attached` answer.
    static func attachSource(_ daemon: DaemonProcess, latency: Int = 20_000, jitter: Int = 10_000) throws -> RawConnection {
        let source = try daemon.connect()
        #expect(type(try source.readLine() ?? "") == "hello")
        try source.send(declaration(latency: latency, jitter: jitter))
        let answer = object(try source.readLine() ?? "")
        #expect(answer["type"] as? String == "pressure-source" && answer["state"] as? String == "attached", "\(answer)")
        return source
    }

    /// A config file with a deep live buffer (as the VM run's): pressure-feed must see every
    /// contact frame, and on a busy machine it may read late.
    static func deepLiveBufferConfig() throws -> String {
        let config = FileManager.default.temporaryDirectory.appendingPathComponent("pressure-feed-\(UUID().uuidString.prefix(8)).conf").path
        try "client-live-buffer-bytes = 16777216\n".write(toFile: config, atomically: true, encoding: .utf8)
        return config
    }

    /// `penkit pressure-feed` on `trace`, 20±10 ms late, its stderr in the pipe. A generous
    /// stated latency: a reading delayed on a busy machine still counts (a real late reading is
    /// what the timeout tests are for).
    static func startFeed(_ trace: String, socket: String) throws -> (Process, Pipe) {
        let feed = Process()
        feed.executableURL = URL(fileURLWithPath: penkit)
        feed.arguments = ["pressure-feed", trace, "--socket", socket, "--delay", "20±10", "--stated-latency", "10000"]
        let output = Pipe()
        feed.standardError = output
        try feed.run()
        return (feed, output)
    }

    static func points(_ stroke: String) -> [[String: Any]] {
        (object(stroke)["stroke"] as? [String: Any])?["points"] as? [[String: Any]] ?? []
    }

    /// `penkitd --replay --realtime` plus `penkit pressure-feed` gives the strokes `penkit replay
    /// --json --late-pressure` computes with the same delay: the live path fuses exactly as the replay.
    @Test func pressureFeedEqualsReplayWithLatePressure() throws {
        let trace = tracePath(Self.drag)
        let config = try Self.deepLiveBufferConfig()
        defer { try? FileManager.default.removeItem(atPath: config) }
        let daemon = try DaemonProcess(["--replay", trace, "--realtime", "--wait-clients", "2", "--exit-after-replay"], config: config)
        let (feed, feedOutput) = try Self.startFeed(trace, socket: daemon.socket)
        let reader = try daemon.connect()
        try reader.subscribe(["frames", "updates", "strokes", "devices"])
        let lines = try reader.readAll(timeout: 120)
        feed.waitUntilExit()
        let feedLog = String(decoding: feedOutput.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(feed.terminationStatus == 0, "\(feedLog)")
        #expect(!lines.contains { type($0) == "dropped" })

        #expect(lines.contains { type($0) == "pressure-source" && object($0)["state"] as? String == "attached" })
        // Live, every contact frame's force was an estimate that expected an update …
        let contact = lines.filter { type($0) == "frame" && object($0)["stroke"] != nil && !(object($0)["stroke"] is NSNull) }
        #expect(!contact.isEmpty)
        for frame in contact {
            let sample = object(frame)["sample"] as? [String: Any] ?? [:]
            #expect((sample["expecting"] as? [String])?.contains("force") == true, "\(frame)")
        }
        // … some updates came after the stroke ended, and none expired.
        var ended = Set<Int>()
        var afterEnd = 0
        for line in lines {
            let o = object(line)
            if type(line) == "ended", let id = o["stroke"] as? Int { ended.insert(id) }
            if type(line) == "update", let id = o["stroke"] as? Int, ended.contains(id) { afterEnd += 1 }
        }
        let expired = lines.filter { type($0) == "update" && !((object($0)["expired"] as? [String]) ?? []).isEmpty }
        #expect(expired.isEmpty, "\(expired.count) expired; pressure-feed: \(feedLog)\npenkitd: \(daemon.log.suffix(2000))")
        #expect(afterEnd > 0, "\(feedLog)")

        let replay = try run([Self.penkit, "replay", trace, "--json", "--late-pressure", "20±10"])
        #expect(replay.status == 0)
        let expected = replay.output.split(separator: "\n").map(String.init).filter { type($0) == "stroke" }
        let live = lines.filter { type($0) == "stroke" }
        #expect(!expected.isEmpty && live.count == expected.count)
        for (got, want) in zip(live, expected) {
            #expect(Self.shape(got) == Self.shape(want), "finalized strokes differ")
        }
        // Every force of the finalized strokes is a measured reading.
        #expect(live.allSatisfy { Self.points($0).allSatisfy { !(($0["estimated"] as? [String])?.contains("force") ?? false) } })
    }

    /// Issue #32: a feed attached after the replay began paired its k-th reading with the k-th
    /// contact frame it saw, so every later force was another sample's (off by up to 0.39), and it
    /// waited for frames that never came. penkitd now says how many contact frames the device had
    /// sent when the source attached, and the feed starts at that sample and ends with the device.
    @Test func aFeedAttachedMidReplayPairsEachReadingWithItsOwnSample() throws {
        let trace = tracePath("wacom-dth2242-pen.evemu")
        let config = try Self.deepLiveBufferConfig()
        defer { try? FileManager.default.removeItem(atPath: config) }
        // Not exiting after the replay: the feed must end by itself when the device goes away.
        let daemon = try DaemonProcess(["--replay", trace, "--realtime", "--wait-clients", "1"], config: config)
        let reader = try daemon.connect()
        try reader.subscribe(["frames", "updates", "strokes", "devices"])
        // The first stroke has ended before the feed starts.
        var lines = try reader.read(until: { type($0) == "ended" }, timeout: 60)
        let (feed, feedOutput) = try Self.startFeed(trace, socket: daemon.socket)
        lines += try reader.read(until: { type($0) == "device" && object($0)["change"] as? String == "removed" }, timeout: 120)
        // The feed ends once its device is gone (bounded: a hang fails here, not the suite).
        let deadline = Date().addingTimeInterval(60)
        while feed.isRunning, Date() < deadline { usleep(50_000) }
        let ended = !feed.isRunning
        if !ended { feed.terminate() }
        feed.waitUntilExit()
        let feedLog = String(decoding: feedOutput.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(ended, "pressure-feed still waiting a minute after the replay ended: \(feedLog)")
        #expect(feed.terminationStatus == 0, "\(feedLog)")
        #expect(feedLog.contains("attached after"), "\(feedLog)")
        let attached = try #require(lines.firstIndex { type($0) == "pressure-source" && object($0)["state"] as? String == "attached" })
        let contactBefore = lines[..<attached].filter { type($0) == "frame" && !(object($0)["stroke"] is NSNull) && object($0)["stroke"] != nil }.count
        #expect((object(lines[attached])["contactFrames"] as? Int) == contactBefore, "\(lines[attached])")

        // Every stroke that began after the attachment has the trace's own forces, each measured.
        let inBand = try run([Self.penkit, "replay", trace, "--json"]).output.split(separator: "\n").map(String.init)
            .filter { type($0) == "stroke" }
        let live = lines.filter { type($0) == "stroke" }
        #expect(live.count == inBand.count)
        let beganBefore = lines[..<attached].filter { type($0) == "began" }.count
        #expect(beganBefore >= 1 && beganBefore < live.count)
        var compared = 0
        for index in beganBefore..<min(live.count, inBand.count) {
            let forces = Self.points(live[index]).map { ($0["force"] as? NSNumber)?.doubleValue ?? -1 }
            let want = Self.points(inBand[index]).map { ($0["force"] as? NSNumber)?.doubleValue ?? -2 }
            #expect(forces == want, "stroke \(index + 1): forces differ from the trace's")
            #expect(Self.points(live[index]).allSatisfy { !(($0["estimated"] as? [String])?.contains("force") ?? false) })
            compared += 1
        }
        #expect(compared > 0)
        #expect(daemon.stop() == 0)
    }

    /// A finalized stroke as comparable values: tool, cancellation and, per point, every
    /// property with time as the offset from the stroke's start (penkitd's replay runs on
    /// CLOCK_MONOTONIC, `penkit replay` on the trace's clock).
    static func shape(_ line: String) -> [String] {
        let stroke = object(line)["stroke"] as? [String: Any] ?? [:]
        let points = points(line)
        let start = (points.first?["t"] as? NSNumber)?.uint64Value ?? 0
        // Keys sorted: a dictionary's own order differs between two parses.
        func sorted(_ fields: [String: Any]) -> String { fields.keys.sorted().map { "\($0)=\(fields[$0]!)" }.joined(separator: " ") }
        var out = [sorted(stroke["tool"] as? [String: Any] ?? [:]) + " cancelled=\(stroke["cancelled"] ?? "")"]
        for point in points {
            var fields = point
            fields["t"] = ((point["t"] as? NSNumber)?.uint64Value ?? 0) - start
            out.append(sorted(fields))
        }
        return out
    }

    /// A source that never sends: each contact sample's force expires (an `update` with
    /// `expired`), keeps the tablet's own pressure as its estimate, and the stroke is finalized
    /// only after its last expiry.
    @Test func silenceExpiresAndTheStrokeWaitsForIt() throws {
        let daemon = try DaemonProcess(["--replay", tracePath(Self.tap), "--realtime", "--wait-clients", "1", "--exit-after-replay"])
        let source = try Self.attachSource(daemon, latency: 0, jitter: 0)
        let reader = try daemon.connect()
        try reader.subscribe(["frames", "updates", "strokes"])
        let lines = try reader.readAll(timeout: 120)
        let expiries = lines.enumerated().filter { type($0.element) == "update" && (object($0.element)["expired"] as? [String])?.contains("force") == true }
        let contact = lines.filter { type($0) == "frame" && object($0)["stroke"] is Int }
        #expect(!contact.isEmpty && expiries.count == contact.count)
        let stroke = try #require(lines.firstIndex { type($0) == "stroke" })
        #expect(expiries.allSatisfy { $0.offset < stroke }, "finalized only when nothing is pending")
        let forces = Self.points(lines[stroke]).compactMap { ($0["force"] as? NSNumber)?.doubleValue }
        let inBand = contact.compactMap { ((object($0)["sample"] as? [String: Any])?["force"] as? NSNumber)?.doubleValue }
        #expect(forces == inBand && forces.contains { $0 > 0 })
        _ = source
    }

    /// A source that leaves mid-stroke: readers hear that the device fell back to in-band
    /// pressure, what waited expires, and the rest of the stroke is measured in-band.
    @Test func sourceDisconnectingMidStrokeFallsBackToInBand() throws {
        let daemon = try DaemonProcess(["--replay", tracePath(Self.drag), "--realtime", "--wait-clients", "1", "--exit-after-replay"])
        var source: RawConnection? = try Self.attachSource(daemon)
        let reader = try daemon.connect()
        try reader.subscribe(["frames", "updates", "strokes", "devices"])
        var lines = try reader.read(until: { type($0) == "frame" && object($0)["stroke"] is Int })
        source = nil  // closes the connection mid-stroke
        lines += try reader.readAll(timeout: 120)
        _ = source
        let detached = try #require(lines.firstIndex { type($0) == "pressure-source" && object($0)["state"] as? String == "detached" })
        #expect(object(lines[detached])["fallback"] as? String == "in-band")
        #expect(lines[..<detached].contains { type($0) == "frame" && object($0)["stroke"] is Int })
        let laterContact = lines[(detached + 1)...].filter { type($0) == "frame" && object($0)["stroke"] is Int }
        #expect(!laterContact.isEmpty)
        for frame in laterContact {
            let sample = object(frame)["sample"] as? [String: Any] ?? [:]
            #expect(!((sample["expecting"] as? [String])?.contains("force") ?? false))
            #expect(!((sample["estimated"] as? [String])?.contains("force") ?? false))
        }
        #expect(lines.filter { type($0) == "stroke" }.count == 1)
        #expect(daemon.waitForExit() == 0)
    }

    /// Only root, penkitd's own user and `pressure-sources` may produce: an allowed reader is not a source.
    @Test func anAllowedReaderIsRefusedAsASource() throws {
        let daemon = try DaemonProcess(["--replay", tracePath(Self.tap), "--realtime", "--loop", "--allow-users", "nobody"],
                                       socketMode: "0666")
        let result = try runAsNobody(["/usr/bin/python3", repositoryRoot + "/examples/pressure-bridge.py",
                                      "--socket", daemon.socket, "--device", "1"])
        #expect(result.status == 2, "\(result.output)")
        #expect(result.output.contains("refused"))
        #expect(daemon.log.contains("refused a pressure source"))
        // As a reader, nobody is served.
        let reader = try runAsNobody(["/usr/bin/python3", repositoryRoot + "/examples/penkit_client.py", "--socket", daemon.socket, "--count", "1"])
        #expect(!reader.output.contains("refused"), "\(reader.output)")
        #expect(daemon.stop() == 0)
    }

    /// docs/protocol.schema.json describes every pressure-source line in both directions, checked
    /// by scripts/check-protocol-schema.py (a real validator, undeclared keys refused) on what
    /// penkitd really sent and what a source really sends.
    @Test func pressureSourceLinesAreValidAndDeclaredByTheSchema() throws {
        let daemon = try DaemonProcess(["--replay", tracePath(Self.tap), "--realtime", "--loop"])
        let reader = try daemon.connect()
        try reader.subscribe(["devices"])
        var lines = [Self.declaration().trimmingCharacters(in: .newlines)]
        let source = try daemon.connect()
        lines.append(try source.readLine() ?? "")
        try source.send(lines[0] + "\n")
        lines.append(try source.readLine() ?? "")
        let now = MonotonicClock.now()
        let readings = ["{\"type\":\"pressure\",\"t\":\(now - 2_000),\"force\":0.25}", "{\"type\":\"pressure\",\"t\":\(now - 1_000),\"force\":1}"]
        lines += readings
        try source.send(readings.joined(separator: "\n") + "\n{\"type\":\"pressure\",\"t\":\(now),\"force\":2}\n")
        lines += try source.read(until: { type($0) == "error" })
        lines += try reader.read(until: { type($0) == "pressure-source" && object($0)["state"] as? String == "detached" })
        for kind in ["pressure-source", "pressure", "error"] { #expect(lines.contains { type($0) == kind }) }
        #expect(lines.contains { object($0)["state"] as? String == "attached" })
        let check = try ProtocolSchemaCheck.run(lines)
        #expect(check.status == 0, "\(check.report)")
        #expect(daemon.stop() == 0)
    }

    /// Lying and flooding sources are cut off with a clear error; their device falls back to
    /// in-band pressure, announced to readers, and a reader keeps receiving frames.
    @Test(arguments: ["time_in_future", "time_backwards", "out_of_range", "flood", "malformed"])
    func misbehavingSourceIsCutOff(code: String) throws {
        let daemon = try DaemonProcess(["--replay", tracePath(Self.tap), "--realtime", "--loop"])
        let reader = try daemon.connect()
        try reader.subscribe(["frames", "devices"])
        let source = try Self.attachSource(daemon)
        let now = MonotonicClock.now()
        var lines = ""
        switch code {
        case "time_in_future": lines = "{\"type\":\"pressure\",\"t\":\(now + 5_000_000),\"force\":0.5}\n"
        case "time_backwards":
            lines = "{\"type\":\"pressure\",\"t\":\(now - 1_000),\"force\":0.5}\n{\"type\":\"pressure\",\"t\":\(now - 50_000),\"force\":0.5}\n"
        case "out_of_range": lines = "{\"type\":\"pressure\",\"t\":\(now - 1_000),\"force\":1.5}\n"
        case "flood": lines = String(repeating: "{\"type\":\"pressure\",\"t\":\(now - 1_000),\"force\":0.5}\n", count: 3000)
        default: lines = "{\"type\":\"pressure\",\"t\":-5,\"force\":0.5}\n"
        }
        try source.send(lines)
        let error = object(try #require(try source.read(until: { type($0) == "error" }).last))
        #expect(error["code"] as? String == code, "\(error)")
        #expect(error["fatal"] as? Bool == true)
        #expect((error["message"] as? String)?.isEmpty == false)
        let seen = try reader.read(until: { type($0) == "pressure-source" && object($0)["state"] as? String == "detached" })
        #expect(type(seen.last ?? "") == "pressure-source")
        // The reader is undisturbed: frames keep coming.
        let more = try reader.read(until: { type($0) == "frame" })
        #expect(type(more.last ?? "") == "frame")
        // The device can take a new source.
        _ = try Self.attachSource(daemon)
        #expect(daemon.stop() == 0)
    }
}
