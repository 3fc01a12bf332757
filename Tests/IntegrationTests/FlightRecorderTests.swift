import Foundation
import PenInput
import PenInputRecord
import PenTestSupport
import Testing

/// penkitd's flight recorder, `penkit record` and `penkit replay REPORT --check`, with a spawned
/// penkitd replaying a real trace (the recorder keeps a replay's events as it keeps live ones):
/// the answer validates against the schema; the report is read back by penkit and by libinput's
/// own `libinput analyze recording`, whose rows are the trace's events; replaying it reproduces
/// the messages penkitd sent; a report altered by one digit does not; and a recorder that is off
/// says so.
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

        // penkit reproduces what penkitd sent; altered by one digit, it does not.
        let (checked, checkOutput) = try run(Self.penkit, ["replay", report, "--check"])
        #expect(checked == 0, "\(checkOutput)")
        #expect(checkOutput.contains("reproduces"), "\(checkOutput)")
        var text = try String(contentsOfFile: report, encoding: .utf8)
        // The last frame's own x (not a prediction's): inside the compared part, whatever the window's start.
        let sample = try #require(text.range(of: #"\"sample\":{"#, options: .backwards))
        let x = try #require(text.range(of: #"\"x\":"#, range: sample.upperBound..<text.endIndex))
        let digit = text[x.upperBound]
        text.replaceSubrange(x.upperBound...x.upperBound, with: digit == "9" ? "8" : String(Character(UnicodeScalar(digit.asciiValue! + 1))))
        let altered = directory + "/altered.yml"
        try text.write(toFile: altered, atomically: true, encoding: .utf8)
        let (alteredStatus, alteredOutput) = try run(Self.penkit, ["replay", altered, "--check"])
        #expect(alteredStatus == 1 && alteredOutput.contains("differs") && alteredOutput.contains("sample.x"), "altered report: \(alteredOutput)")

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
        let windowIndexes = Self.numbers(after: #"\"updateIndex\":"#, in: text)
        #expect(Set(windowIndexes) == [2, 3], "the window holds the later estimated samples only: \(windowIndexes)")

        let (checked, checkOutput) = try run(Self.penkit, ["replay", report, "--check"])
        #expect(checked == 0 && checkOutput.contains("reproduces") && checkOutput.contains("update indexes by 1)"), "\(checkOutput)")

        // One update index made one higher, in the last update: the rebased check names it.
        let last = try #require(text.range(of: #"\"type\":\"update\""#, options: .backwards))
        let key = try #require(text.range(of: #"\"updateIndex\":"#, range: last.upperBound..<text.endIndex))
        let digits = text[key.upperBound...].prefix { $0.isNumber }
        let altered = daemon.directory + "/estimated-altered.yml"
        try text.replacingCharacters(in: key.upperBound..<digits.endIndex, with: String(Int(digits)! + 1))
            .write(toFile: altered, atomically: true, encoding: .utf8)
        let (alteredStatus, alteredOutput) = try run(Self.penkit, ["replay", altered, "--check"])
        #expect(alteredStatus == 1 && alteredOutput.contains("updateIndex"), "\(alteredOutput)")
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

    /// Every whole number after `key` in `text`.
    static func numbers(after key: String, in text: String) -> [Int] {
        var found: [Int] = []
        var rest = Substring(text)
        while let range = rest.range(of: key) {
            let digits = rest[range.upperBound...].prefix { $0.isNumber }
            if let n = Int(digits) { found.append(n) }
            rest = rest[range.upperBound...]
        }
        return found
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
