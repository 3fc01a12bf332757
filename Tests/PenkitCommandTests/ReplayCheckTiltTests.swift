import Foundation
@testable import penkit
import PenEngine
import PenEvaluation
import PenInput
import PenKit
import Testing

/// `penkit replay REPORT --check` on a window that starts after penkitd learned that a tool sends
/// no tilt (a whole tilt timeout without it): the e2e's live window failed on `sample.expecting`
/// when the DTH-2242 pen had been seen before it. The report holds digests, not lines: the check
/// finds the tools whose first frame in a fresh replay waits for tilt, and tries the replay again
/// with an engine that knows them to send none.
@Suite struct ReplayCheckTiltTests {
    static let trace = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("traces/wacom-dth2242-pen.evemu").path
    static let pen = ToolKey(device: 1, tool: ToolIdentity(type: .pen, serial: 461503946, id: 1050626))

    static func lines(knowingWithoutTilt tools: Set<ToolKey>) throws -> [String] {
        var replay = EngineReplay(prediction: EnginePrediction.penkit(smoothed: true))
        replay.toolsWithoutTilt = tools
        var lines: [String] = []
        replay.run(try decodeForEngine(trace, options: DecoderOptions())) { message in
            let line = message.jsonLine()
            if let type = ReplayCheck.type(line), ReplayCheck.engineTypes.contains(type) { lines.append(line) }
        }
        return lines
    }

    @Test func aToolKnownWithoutTiltIsReadOffTheWindowAndReplayedSo() throws {
        let known = try Self.lines(knowingWithoutTilt: [Self.pen])
        let fresh = try Self.lines(knowingWithoutTilt: [])
        // The trace's pen sends no tilt at first: a fresh engine expects it, one that knows does not.
        #expect(fresh.contains { $0.contains(#""expecting":["azimuth","altitude"]"#) })
        #expect(!known.contains { $0.contains(#""expecting":["azimuth","altitude"]"#) })

        #expect(ReplayCheck.toolsAwaitingTilt(fresh) == [Self.pen])
        #expect(ReplayCheck.toolsAwaitingTilt(known).isEmpty)

        // What penkitd's recorder keeps of the lines of an engine that knew: their digests.
        let recorded = known.compactMap { LineDigest.of($0).map { ReplayCheck.RecordedLine(time: 0, digest: $0) } }
        #expect(recorded.count == known.count)
        // Replayed without that knowledge, the window differs at its first frame; with it, it is equal.
        let unseeded = ReplayCheck.compare(recorded: recorded, replayed: fresh, learnedBefore: true, deviceIDs: [1])
        #expect(!unseeded.matches && unseeded.summary.contains("at message 1 of") && unseeded.summary.contains(#""expecting":["azimuth","altitude"]"#),
                "\(unseeded.summary)")
        let seeded = ReplayCheck.compare(recorded: recorded, replayed: try Self.lines(
            knowingWithoutTilt: ReplayCheck.toolsAwaitingTilt(fresh)), learnedBefore: true, deviceIDs: [1])
        #expect(seeded.matches && seeded.summary.contains("all byte for byte"), "\(seeded.summary)")
    }
}
