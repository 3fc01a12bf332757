import Foundation
@testable import penkit
import PenEngine
import PenEvaluation
import PenInput
import PenKit
import Testing

/// `penkit replay REPORT --check` on a window where the live libinput's 50 ms proximity timer fired
/// late, after the next report was queued (the e2e's check met it on a loaded host): what penkitd
/// sent ended the proximity there. The report's header carries each proximity-out libinput gave
/// (`proximityOuts`); with it the check makes the same, without it the window differs.
@Suite struct ReplayCheckLateTimerTests {
    static let trace = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("traces/wacom-intuos4-6x9-stylus-drag.evemu").path

    static func lines(_ outs: [LiveProximityOut]) throws -> [String] {
        let loaded = try TraceFile.load(path: trace)
        let inputs = try ReplayCheck.decode(loaded, from: 0, options: DecoderOptions(), proximityOuts: outs.isEmpty ? [:] : [1: outs])
        var engine = EngineReplay(prediction: EnginePrediction.penkit(smoothed: true))
        var lines: [String] = []
        engine.run(inputs) { message in
            let line = message.jsonLine()
            if let type = ReplayCheck.type(line), ReplayCheck.engineTypes.contains(type) { lines.append(line) }
        }
        return lines
    }

    @Test func aLateTimersProximityOutInTheHeaderIsMadeAgain() throws {
        let device = try TraceFile.load(path: Self.trace).devices[0]
        let frames = Array(Set(device.events.map(\.time))).sorted()
        let late = LiveProximityOut(time: frames[3] + 240_000, after: frames[3])
        // what penkitd sent, as its recorder keeps it
        let live = try Self.lines([late])
        #expect(live != (try Self.lines([])), "the late timer changes what penkitd sent")
        let recorded = live.compactMap { LineDigest.of($0).map { ReplayCheck.RecordedLine(time: 0, digest: $0) } }
        for (header, matches) in [([late], true), ([], false)] {
            let report = ReplayCheck.Report(settings: [:], lines: recorded, fromStart: true, deviceIDs: [1],
                                            tools: [1: RecordedTools(proximityOuts: header)])
            let replayed = try Self.lines(ReplayCheck.proximityOuts(report)[1] ?? [])
            let result = ReplayCheck.compare(recorded: recorded, replayed: replayed, learnedBefore: false, deviceIDs: [1])
            #expect(result.matches == matches, "\(header): \(result.summary)")
        }
    }

    /// The header's rows survive the report's YAML as `penkit record` writes and reads it.
    @Test func theProximityOutsRowsReadBackFromTheReport() throws {
        let outs = [LiveProximityOut(time: 500, after: 300), LiveProximityOut(time: 900, after: 880)]
        let yaml = RecordedTools.yaml([(id: 4, tools: RecordedTools(proximityOuts: outs))])
        #expect(yaml.contains("proximityOuts:\n  - [4, 500, 300]\n  - [4, 900, 880]\n"))
        let rows: [[Any]] = [[4, 500, 300], [4, 900, 880]]
        let read = try RecordedTools.fromReport(["proximityOuts": rows])
        #expect(read[4]?.proximityOuts == outs)
        #expect(throws: RuntimeFailure.self) { try RecordedTools.fromReport(["proximityOuts": [[4, 500]] as [[Any]]]) }
    }
}
