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
/// between the two. The check reads the tools off the window's frames and starts its decoder
/// knowing them.
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
        let ids = try #require(trace.devices.first).events.filter { $0.type == 3 && $0.code == 0x28 && $0.value != 0 }
        let firstID = try #require(ids.first), laterID = try #require(ids.first { $0.value != firstID.value })
        // The window begins at the proximity that names the pen by its second id.
        let start = laterID.time
        let whole = Self.engineLines(try decodeForEngine(Self.trace, options: DecoderOptions()), withoutTilt: [], from: start)
        #expect(whole.contains { $0.contains(#""id":\#(firstID.value)"#) })
        #expect(!whole.contains { $0.contains(#""id":\#(laterID.value)"#) }, "penkitd's decoder keeps the first id")

        let known = ReplayCheck.toolsInWindow(whole, deviceIDs: [1])
        #expect(known[1]?.map(\.id) == [UInt64(firstID.value)], "\(known)")
        let withoutTilt = ReplayCheck.toolsLearnedWithoutTilt(whole, deviceIDs: [1])

        let unseeded = Self.engineLines(try ReplayCheck.decode(trace, from: start, options: DecoderOptions()),
                                        withoutTilt: withoutTilt, from: start)
        let differs = ReplayCheck.compare(recorded: whole, replayed: unseeded, learnedBefore: true, deviceIDs: [1])
        #expect(!differs.matches && differs.summary.contains("tool.id"), "\(differs.summary)")

        let seeded = Self.engineLines(try ReplayCheck.decode(trace, from: start, options: DecoderOptions(), knownTools: known),
                                      withoutTilt: withoutTilt, from: start)
        let same = ReplayCheck.compare(recorded: whole, replayed: seeded, learnedBefore: true, deviceIDs: [1])
        #expect(same.matches, "\(same.summary)")
    }
}
