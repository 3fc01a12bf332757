import Foundation
import PenInput
import PenInputRecord
import PenTestSupport
import Testing

/// penkitd's flight recorder, `penkit record` and `penkit replay REPORT --check`, with a spawned
/// penkitd replaying a real trace (the recorder keeps a replay's events as it keeps live ones):
/// the answer validates against the schema; the report is read back by penkit and by libinput's
/// own `libinput analyze recording`, whose rows are the trace's events; replaying it reproduces
/// the digests of the messages penkitd sent; a report whose recorded digest is altered by one
/// digit does not, and the check names that line; and a recorder that is off says so.
@Suite(.serialized)
struct FlightRecorderTests {
    static let trace = "wacom-cintiq-22hdt-pen.evemu"
    static let penkit = URL(fileURLWithPath: penkitdPath).deletingLastPathComponent().appendingPathComponent("penkit").path

    /// A penkitd that has replayed `path` whole (unpaced) and stays up, with its devices' removal read.
    static func replayed(_ path: String = tracePath(trace)) throws -> DaemonProcess {
        let daemon = try DaemonProcess(["--replay", path, "--wait-clients", "1", "--flight-recorder", "120"])
        let reader = try daemon.connect()
        try reader.subscribe(["devices"])
        _ = try reader.read(until: { type($0) == "device" && object($0)["change"] as? String == "removed" }, timeout: 120)
        return daemon
    }

    @Test func aRecordingValidatesReplaysAsSentAndLibinputReadsIt() throws {
        let daemon = try Self.replayed()
        defer { _ = daemon.stop() }
        // The raw answer, against the schema with every key declared.
        let raw = try daemon.connect()
        #expect(type(try raw.readLine() ?? "") == "hello")
        try raw.send("{\"type\":\"record\",\"version\":1,\"seconds\":20}\n")
        let answer = try raw.read(until: { type($0) == "recording-end" }, timeout: 60)
        #expect(answer.first.map(type) == "recording" && answer.last.map(type) == "recording-end")
        let (status, schemaReport) = try ProtocolSchemaCheck.run(answer)
        #expect(status == 0, "\(schemaReport)")

        let directory = daemon.directory
        let report = directory + "/report.yml"
        let (recorded, recordOutput) = try run(Self.penkit, ["record", "--socket", daemon.socket, "--last", "20s", "-o", report])
        #expect(recorded == 0, "\(recordOutput)")
        #expect(recordOutput.contains("handwriting"), "the report's holder is told what it holds: \(recordOutput)")

        // The window's events are the trace's own, from where the window starts.
        let window = try TraceFile.load(path: report, readers: .all)
        let original = try TraceFile.load(path: tracePath(Self.trace))
        let events = try #require(window.devices.first?.events)
        let all = try #require(original.devices.first?.events)
        #expect(events.count > 1000, "\(events.count) events in 20 s of the Cintiq trace")
        let start = try #require(all.firstIndex { $0.time == events[0].time && $0.type == events[0].type && $0.code == events[0].code })
        #expect(Array(all[start..<(start + events.count)]) == events, "the report's events are the trace's, in order")
        #expect(all.last == events.last, "the window ends with the trace's last event")

        // penkit reproduces what penkitd sent; with the last line's digest altered by one digit, it
        // does not, and names that line (the last compared) with the altered digest.
        let (checked, checkOutput) = try run(Self.penkit, ["replay", report, "--check"])
        #expect(checked == 0, "\(checkOutput)")
        #expect(checkOutput.contains("reproduces"), "\(checkOutput)")
        let text = try String(contentsOfFile: report, encoding: .utf8)
        // The header's proximity-outs are those penkitd's decoder gave, each with the time of the
        // event before it (its own decoder here: a replay's penkitd decodes the trace itself).
        let decoded = try TabletDecoder.decode(all, device: try #require(original.devices.first).description)
        var expectedOuts: [String] = []
        for (index, event) in decoded.enumerated() where index > 0 && event.kind == .proximity && event.state == .proximityOut {
            expectedOuts.append("[\(event.time), \(decoded[index - 1].time)]")
        }
        let section = try #require(text.firstMatch(of: #/\n  proximityOuts:\n((?:  - \[\d+, \d+, \d+\]\n)+)/#))
        let outs = section.1.split(separator: "\n").map { String($0.replacing(#/  - \[\d+, /#, with: "[")) }
        #expect(!expectedOuts.isEmpty && outs == expectedOuts.suffix(256), "\(outs.prefix(3)) against \(expectedOuts.prefix(3))")
        let (altered, digest) = try Self.alteringDigest(of: text) { _ in true }
        let alteredPath = directory + "/altered.yml"
        try altered.write(toFile: alteredPath, atomically: true, encoding: .utf8)
        let (alteredStatus, alteredOutput) = try run(Self.penkit, ["replay", alteredPath, "--check"])
        let place = alteredOutput.firstMatch(of: #/at message (\d+) of (\d+) /#)
        #expect(alteredStatus == 1 && alteredOutput.contains("differs") && place != nil && place?.1 == place?.2
                && alteredOutput.contains("digest \(digest)") && alteredOutput.contains("the replay's line: {"), "altered report: \(alteredOutput)")

        // A window reaching back to when penkitd opened the tablet: predictions reproduced too.
        let whole = directory + "/whole.yml"
        let (wholeRecorded, wholeOutput) = try run(Self.penkit, ["record", "--socket", daemon.socket, "--last", "600s", "-o", whole])
        #expect(wholeRecorded == 0, "\(wholeOutput)")
        #expect(try String(contentsOfFile: whole, encoding: .utf8).contains("fromStart: true"))
        let (wholeChecked, wholeCheck) = try run(Self.penkit, ["replay", whole, "--check"])
        #expect(wholeChecked == 0 && wholeCheck.contains("reproduces") && !wholeCheck.contains("prediction"), "\(wholeCheck)")

        // libinput's own tool (Debian's libinput-tools, python3-libevdev) reads the report: one row
        // per frame with an X, each the X of the trace's frame at that time.
        let (analyzed, rows) = try run("/usr/bin/python3", ["/usr/libexec/libinput/libinput-analyze-recording", report])
        #expect(analyzed == 0, "\(rows.prefix(2000))")
        let xByTime = Dictionary(events.filter { $0.type == 3 && $0.code == 0 }.map { (($0.time / 1000), $0.value) },
                                 uniquingKeysWith: { _, last in last })
        var matched = 0
        for line in rows.split(separator: "\n") {
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count > 2, let seconds = Double(cells[0]), let x = Int32(cells[1]) else { continue }
            // analyze prints ms resolution: the trace's X in that ms.
            if xByTime[UInt64((seconds * 1000).rounded())] == x { matched += 1 }
        }
        #expect(matched > 500, "\(matched) rows of libinput analyze recording matched the trace's X; output starts: \(rows.prefix(600))")
    }

    /// A window that starts after samples which expected updates: the Cintiq's pen waits for its
    /// tilt at three proximities, 15.7, 17.4 and 18.7 s into the trace, whose last event is at
    /// 79.9 s. A 63 s window of the unpaced replay (the trace's own clock, so the same whatever
    /// the host's speed) starts at 16.9 s: after the first, before the other two. penkitd numbers
    /// their update indexes 2 and 3, the replay 1 and 2. The check rebases the indexes, and still
    /// catches one that is off by one.
    @Test func aWindowAfterEarlierEstimatedSamplesChecks() throws {
        let daemon = try Self.replayed()
        defer { _ = daemon.stop() }
        let report = daemon.directory + "/estimated.yml"
        let (recorded, recordOutput) = try run(Self.penkit, ["record", "--socket", daemon.socket, "--last", "63s", "-o", report])
        #expect(recorded == 0, "\(recordOutput)")
        let text = try String(contentsOfFile: report, encoding: .utf8)
        #expect(text.contains("fromStart: false"), "the window starts after penkitd opened the tablet")
        let counters = Self.rows(text).filter { ($0.kind == "frame" || $0.kind == "update") && $0.number > 0 }.map(\.number)
        #expect(Set(counters) == [2, 3], "the window holds the later estimated samples only: \(counters)")

        let (checked, checkOutput) = try run(Self.penkit, ["replay", report, "--check"])
        #expect(checked == 0 && checkOutput.contains("reproduces") && checkOutput.contains("update indexes by 1)"), "\(checkOutput)")

        // The last update's digest altered by one digit: the check names an update.
        let (altered, digest) = try Self.alteringDigest(of: text) { $0 == "update" }
        let alteredPath = daemon.directory + "/estimated-altered.yml"
        try altered.write(toFile: alteredPath, atomically: true, encoding: .utf8)
        let (alteredStatus, alteredOutput) = try run(Self.penkit, ["replay", alteredPath, "--check"])
        #expect(alteredStatus == 1 && alteredOutput.contains("penkitd: update, digest \(digest)"), "\(alteredOutput)")
    }

    /// A pen that never names itself (no tool id, no serial: the Genius tablet's, like most
    /// non-Wacom pens) is checked from the window's first proximity-in, as any other. The trace
    /// twice, 2 s apart, and a window that starts in the gap: after penkitd opened the tablet.
    @Test func aReportOfAPenWithoutSerialChecks() throws {
        let twice = try MutatedTrace.twice("genius-easypen-i405x.evemu", gap: 2_000_000)
        let daemon = try Self.replayed(twice.path)
        defer { _ = daemon.stop() }
        let report = daemon.directory + "/unnamed.yml"
        let (recorded, recordOutput) = try run(Self.penkit, ["record", "--socket", daemon.socket, "--last", "11s", "-o", report])
        #expect(recorded == 0, "\(recordOutput)")
        let window = try TraceFile.load(path: report, readers: .all)
        let events = try #require(window.devices.first?.events)
        #expect(!events.contains { ($0.type == 3 && $0.code == 0x28) || ($0.type == 4 && $0.code == 0) },
                "the report's pen sends no tool id and no serial")
        #expect(try String(contentsOfFile: report, encoding: .utf8).contains("fromStart: false"))
        let (checked, checkOutput) = try run(Self.penkit, ["replay", report, "--check"])
        #expect(checked == 0 && checkOutput.contains("reproduces"), "\(checkOutput)")
        // The first pass ended with the pen's own release, which libinput remembers: no forced
        // proximity-out in the second, and the check decodes the window knowing that.
        #expect(checkOutput.contains("release the pen by itself"), "\(checkOutput)")
    }

    /// A window that starts after penkitd met the pen and learned it sends no tilt: the DTH-2242
    /// trace twice, 2 s apart, and a 10 s window ending with it, which starts in the second
    /// pass's first proximity. The replay starts at the next, where the pen names itself by a
    /// second id (0x80a), which libinput does not take: it keeps the pen's first, 0x802. penkitd's
    /// report says which tools libinput had met and which the engine knew to send no tilt, and
    /// when; the check starts knowing them. Without those rows it fails at the window's first frame.
    @Test func aWindowAfterThePenWasMetAndLearnedChecks() throws {
        let twice = try MutatedTrace.twice("wacom-dth2242-pen.evemu", gap: 2_000_000)
        let daemon = try Self.replayed(twice.path)
        defer { _ = daemon.stop() }
        let report = daemon.directory + "/learned.yml"
        let (recorded, recordOutput) = try run(Self.penkit, ["record", "--socket", daemon.socket, "--last", "10s", "-o", report])
        #expect(recorded == 0, "\(recordOutput)")
        let text = try String(contentsOfFile: report, encoding: .utf8)
        #expect(text.contains("fromStart: false"))
        // The pen by the id of its first proximity (0x802 = 1050626), met at the trace's first event.
        #expect(text.firstMatch(of: #/\n  tools:\n  - \[\d+, pen, 461503946, 1050626, 1369413313184404\]\n  withoutTilt:\n  - \[\d+, \d+, pen, 461503946, 1050626, true\]\n/#) != nil,
                "\(text.split(separator: "\n").filter { $0.contains("461503946,") })")

        let (checked, checkOutput) = try run(Self.penkit, ["replay", report, "--check"])
        #expect(checked == 0 && checkOutput.contains("reproduces") && checkOutput.contains("sending no tilt")
                && checkOutput.contains("1 tool(s) libinput had met"), "\(checkOutput)")

        // The same report without what penkitd knew: the replay takes the pen for a new tool.
        let blind = text.replacing(#/\n  tools:\n(  - \[.*\]\n)+  withoutTilt:\n(  - \[.*\]\n)+/#, with: "\n  tools: []\n  withoutTilt: []\n")
        #expect(blind != text)
        let blindPath = daemon.directory + "/blind.yml"
        try blind.write(toFile: blindPath, atomically: true, encoding: .utf8)
        let (blindStatus, blindOutput) = try run(Self.penkit, ["replay", blindPath, "--check"])
        #expect(blindStatus == 1 && blindOutput.contains("differs from what penkitd sent at message 1 of"), "\(blindOutput)")
    }

    /// The report's digest rows (`  - [µs, type, bool, "hex", "hex", n]`), in order.
    static func rows(_ text: String) -> [(kind: String, full: String, number: Int)] {
        text.split(separator: "\n").compactMap { line in
            guard line.hasPrefix("  - ["), let match = line.firstMatch(of: #/^  - \[\d+, (\w+), \w+, "([0-9a-f]{16})", "[0-9a-f]{16}", (\d+)\]$/#) else { return nil }
            return (String(match.1), String(match.2), Int(match.3) ?? 0)
        }
    }

    /// `text` with both digests of the last row whose type `select` takes changed in their last
    /// digit (a line that differs in more than a frame's prediction), and the altered full digest.
    static func alteringDigest(of text: String, _ select: (String) -> Bool) throws -> (String, String) {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let index = try #require(lines.lastIndex { line in rows(line).first.map { select($0.kind) } ?? false })
        var fields = lines[index].components(separatedBy: ", ")
        for i in [3, 4] {
            let digest = fields[i]
            let last = digest.dropLast().last!
            fields[i] = String(digest.dropLast(2)) + (last == "0" ? "1" : "0") + "\""
        }
        var altered = lines
        altered[index] = fields.joined(separator: ", ")
        return (altered.joined(separator: "\n"), String(fields[3].dropFirst().dropLast()))
    }

    @Test func aRecorderThatIsOffSaysSoAndHelloSaysWhetherItRecords() throws {
        let off = try DaemonProcess(["--flight-recorder", "0"])
        defer { _ = off.stop() }
        let client = try off.connect()
        let hello = object(try client.readLine() ?? "")
        #expect((hello["settings"] as? [String: String])?["flightRecorder"] == "off")
        try client.send("{\"type\":\"record\",\"version\":1}\n")
        let error = object(try client.readLine() ?? "")
        #expect(error["code"] as? String == "recording_unavailable" && error["fatal"] as? Bool == false, "\(error)")
        let (status, output) = try run(Self.penkit, ["record", "--socket", off.socket, "-o", off.directory + "/r.yml"])
        #expect(status != 0 && output.contains("flight recorder is off"), "\(output)")

        let on = try DaemonProcess([])
        defer { _ = on.stop() }
        let onHello = object(try on.connect().readLine() ?? "")
        #expect((onHello["settings"] as? [String: String])?["flightRecorder"] == "60s")
        let bad = try on.connect()
        _ = try bad.readLine()
        try bad.send("{\"type\":\"record\",\"version\":1,\"seconds\":601}\n")
        #expect(object(try bad.readLine() ?? "")["code"] as? String == "out_of_range")
    }
}
