import Foundation
@testable import penkit
import PenEngine
import PenEvaluation
import PenInput
import PenInputRecord
import PenKit
import Testing

/// `penkit replay REPORT --check` on a window that starts after a pen with a serial was first
/// seen. libinput keeps such a tool by (type, serial) with the id of its first proximity: the
/// DTH-2242's pen comes in as 0x802, later as 0x80a with the same serial, and stays 0x802 (the
/// id also picks the tool's axes). The e2e's live window failed on `tool.id` when it began
/// between the two. penkitd's report says which tools libinput had met, and when; the check
/// starts its decoder knowing those met before the replay starts.
@Suite struct ReplayCheckToolIdentityTests {
    static let trace = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("traces/wacom-dth2242-pen.evemu").path

    static func engineLines(_ inputs: [EngineReplay.Input], withoutTilt: Set<ToolKey>, from start: UInt64) -> [String] {
        var replay = EngineReplay(prediction: EnginePrediction.penkit(smoothed: true))
        replay.toolsWithoutTilt = withoutTilt
        var lines: [String] = []
        replay.run(inputs) { message in
            let line = message.jsonLine()
            if let type = ReplayCheck.type(line), ReplayCheck.engineTypes.contains(type), (ReplayCheck.time(line) ?? 0) >= start {
                lines.append(line)
            }
        }
        return lines
    }

    @Test func aPenSeenBeforeTheWindowKeepsItsFirstIDInTheReplay() throws {
        let trace = try TraceFile.load(path: Self.trace, readers: .all)
        let events = try #require(trace.devices.first).events
        let ids = events.filter { $0.type == 3 && $0.code == 0x28 && $0.value != 0 }
        let serial = try #require(events.first { $0.type == 4 && $0.code == 0 }).value
        let firstID = try #require(ids.first), laterID = try #require(ids.first { $0.value != firstID.value })
        // The window begins at the proximity that names the pen by its second id.
        let start = laterID.time
        let whole = Self.engineLines(try decodeForEngine(Self.trace, options: DecoderOptions()), withoutTilt: [], from: start)
        #expect(whole.contains { $0.contains(#""id":\#(firstID.value)"#) })
        #expect(!whole.contains { $0.contains(#""id":\#(laterID.value)"#) }, "penkitd's decoder keeps the first id")
        // What penkitd's recorder keeps of those lines: their digests.
        let recorded = whole.compactMap { LineDigest.of($0).map { ReplayCheck.RecordedLine(time: 0, digest: $0) } }

        // The report's header as penkitd writes it: the pen met at the trace's first proximity,
        // by its first id; and, as the window starts after a whole tilt timeout of that
        // proximity, known to send no tilt.
        let pen = ToolIdentity(type: .pen, serial: UInt64(serial), id: UInt64(firstID.value))
        let tools = RecordedTools(known: [.init(tool: pen, since: firstID.time)],
                                  tiltChanges: [.init(time: firstID.time + 1, tool: pen, withoutTilt: true)])
        let report = ReplayCheck.Report(settings: [:], lines: recorded, fromStart: false, deviceIDs: [7], tools: [7: tools])
        let known = ReplayCheck.knownTools(report, before: start)
        #expect(known == [1: [pen]], "penkitd's device 7 is the replay's 1: \(known)")
        #expect(ReplayCheck.knownTools(report, before: firstID.time).isEmpty, "a replay from the first proximity meets the pen itself")
        let withoutTilt = ReplayCheck.toolsWithoutTilt(report, before: start)
        #expect(withoutTilt == [ToolKey(device: 1, tool: pen)])

        let unseeded = Self.engineLines(try ReplayCheck.decode(trace, from: start, options: DecoderOptions()),
                                        withoutTilt: withoutTilt, from: start)
        let differs = ReplayCheck.compare(recorded: recorded, replayed: unseeded, learnedBefore: true, deviceIDs: [1])
        #expect(!differs.matches && differs.summary.contains("at message 1 of") && differs.summary.contains(#""id":\#(laterID.value)"#),
                "\(differs.summary)")

        let seeded = Self.engineLines(try ReplayCheck.decode(trace, from: start, options: DecoderOptions(), knownTools: known),
                                      withoutTilt: withoutTilt, from: start)
        let same = ReplayCheck.compare(recorded: recorded, replayed: seeded, learnedBefore: true, deviceIDs: [1])
        #expect(same.matches, "\(same.summary)")
    }

    /// The header's rows read back as `penkit record` writes them, and what was known at a time
    /// is what changed before it.
    @Test func theReportsToolRowsReadBackAndSayWhatWasKnownWhen() throws {
        let pen = ToolIdentity(type: .pen, serial: 461503946, id: 0x802)
        let eraser = ToolIdentity(type: .eraser, serial: 461503946, id: 0x80a)
        let tools = RecordedTools(known: [.init(tool: pen, since: 100), .init(tool: eraser, since: 300)],
                                  tiltChanges: [.init(time: 0, tool: eraser, withoutTilt: true),
                                                .init(time: 200, tool: pen, withoutTilt: true),
                                                .init(time: 400, tool: pen, withoutTilt: false)])
        var recording = Recording()
        recording.devices = [Recording.Device(id: 3, name: "pen", node: "event3", grabbed: false,
                                              description: DeviceDescription(name: "pen"), tools: tools)]
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("tools-\(getpid()).yml").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try RecordingYAML.text(recording, kernel: "k", os: "o").write(toFile: path, atomically: true, encoding: .utf8)
        let report = try ReplayCheck.load(path)
        #expect(report.tools == [3: tools] && report.deviceIDs == [3])

        #expect(tools.tools(before: 100) == [] && tools.tools(before: 101) == [pen] && tools.tools(before: 1000) == [pen, eraser])
        #expect(tools.withoutTilt(before: 1) == [eraser])
        #expect(Set(tools.withoutTilt(before: 201).map(\.id)) == [pen.id, eraser.id])
        #expect(tools.withoutTilt(before: 401) == [eraser], "the pen sent tilt at 400: it is no longer known to send none")

        try "version: 1\npenkit:\n  lines: []\n  tools:\n  - [3, pen, 1]\n".write(toFile: path, atomically: true, encoding: .utf8)
        #expect(throws: RuntimeFailure.self) { try ReplayCheck.load(path) }
    }
}
