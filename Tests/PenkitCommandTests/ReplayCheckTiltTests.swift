import Foundation
@testable import penkit
import PenEngine
import PenEvaluation
import PenInput
import PenKit
import Testing

/// `penkit replay REPORT --check` on a window that starts after penkitd learned that a tool sends
/// no tilt (a whole tilt timeout without it): the e2e's live window failed on `sample.expecting`
/// when the DTH-2242 pen had been seen before it. The report holds digests, not lines, and its
/// header says when penkitd's engine learned it: the check replays with an engine that knows what
/// penkitd's knew where the replay starts, and only that.
@Suite struct ReplayCheckTiltTests {
    static let trace = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("traces/wacom-dth2242-pen.evemu").path
    static let pen = ToolIdentity(type: .pen, serial: 461503946, id: 1050626)

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

    /// A report of `recorded` whose header says the engine learned at `learned` (nil: never)
    /// that the pen sends no tilt; as penkitd's device 1.
    static func report(_ recorded: [ReplayCheck.RecordedLine], learned: UInt64?) -> ReplayCheck.Report {
        let changes = learned.map { [RecordedTools.TiltChange(time: $0, tool: pen, withoutTilt: true)] } ?? []
        return ReplayCheck.Report(settings: [:], lines: recorded, fromStart: false, deviceIDs: [1],
                                  tools: [1: RecordedTools(known: [], tiltChanges: changes)])
    }

    @Test func aToolKnownWithoutTiltIsReadOffTheReportsHeaderAndReplayedSo() throws {
        let key = ToolKey(device: 1, tool: Self.pen)
        let known = try Self.lines(knowingWithoutTilt: [key])
        let fresh = try Self.lines(knowingWithoutTilt: [])
        // The trace's pen sends no tilt: a fresh engine expects it, one that knows does not.
        #expect(fresh.contains { $0.contains(#""expecting":["azimuth","altitude"]"#) })
        #expect(!known.contains { $0.contains(#""expecting":["azimuth","altitude"]"#) })
        let start = try #require(fresh.first.flatMap(ReplayCheck.time))

        // What penkitd's recorder keeps of the lines of an engine that knew: their digests.
        let recorded = known.compactMap { LineDigest.of($0).map { ReplayCheck.RecordedLine(time: 0, digest: $0) } }
        #expect(recorded.count == known.count)

        // Learned before the replay starts (0: before the oldest change penkitd kept): seeded.
        for learned: UInt64 in [0, start - 1] {
            let seeds = ReplayCheck.toolsWithoutTilt(Self.report(recorded, learned: learned), before: start)
            #expect(seeds == [key])
            let seeded = ReplayCheck.compare(recorded: recorded, replayed: try Self.lines(knowingWithoutTilt: seeds),
                                             learnedBefore: true, deviceIDs: [1])
            #expect(seeded.matches && seeded.summary.contains("all byte for byte"), "\(seeded.summary)")
        }
        // Never learned, or learned only once the replay runs: not seeded, and the window differs
        // at its first frame, which the check names with the replay's line.
        for learned: UInt64? in [nil, start] {
            #expect(ReplayCheck.toolsWithoutTilt(Self.report(recorded, learned: learned), before: start).isEmpty)
        }
        let unseeded = ReplayCheck.compare(recorded: recorded, replayed: fresh, learnedBefore: true, deviceIDs: [1])
        #expect(!unseeded.matches && unseeded.summary.contains("at message 1 of") && unseeded.summary.contains(#""expecting":["azimuth","altitude"]"#),
                "\(unseeded.summary)")
    }
}
