import Foundation
import PenKit
import PenTestSupport
@testable import penkitd
import Testing

/// Ring and strip actions through the input thread's pipeline, as penkitd sends them: the pad
/// traces' positions (as libinput reports them, `PadMotionTests`) with a config's motion keys
/// give one `action` per step, each line valid against docs/protocol.schema.json with every key
/// declared (scripts/check-protocol-schema.py --strict, python3-jsonschema).
@Suite struct PadMotionPipelineTests {
    func lines(config: [(String, String)], events: [PadEvent]) throws -> [String] {
        var map = ActionMap()
        for (key, value) in config { _ = try map.set(key: key, value: value) }
        var pipeline = MessagePipeline(prediction: nil, stages: PipelineStages(actions: SharedSetting(map)))
        var batch = OutboundBatch()
        for event in events { pipeline.run(.pad(event, device: 4), into: &batch) }
        return String(decoding: batch.bytes, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    static func touch(_ kind: PadEvent.Kind, _ positions: [Double], mode: UInt32 = 0) -> [PadEvent] {
        positions.enumerated().map { index, position in
            PadEvent(kind: kind, time: 7_000_000 + UInt64(index) * 20_000, number: 0, position: position,
                     fromFinger: true, modeGroup: 0, mode: mode)
        }
    }

    @Test func theRingTraceSendsFiveClockwiseActionsOfItsModesKey() throws {
        let sent = try lines(config: [("action-ring-0-cw", "myApp.everyMode"), ("action-ring-0-cw-mode-0", "myApp.zoomIn"),
                                      ("action-ring-0-ccw", "myApp.zoomOut")],
                             events: Self.touch(.ring, PadMotionTests.intuos5Ring))
        let actions = sent.filter { $0.contains(#""type":"action""#) }
        #expect(sent.filter { $0.contains(#""type":"pad""#) }.count == 7, "every pad event still goes out raw")
        #expect(actions.count == 5)
        #expect(actions.allSatisfy { $0.contains(#""action":"myApp.zoomIn""#) && $0.contains(#""trigger":"ring-0-cw-mode-0""#) })
        #expect(actions.first?.contains(#""t":7020000"#) == true, "the first step is the second position's")
        try expectValid(actions)
    }

    @Test func theStripTraceSendsFiveDownActionsAndNoneUnmapped() throws {
        let mapped = try lines(config: [("action-strip-0-down", "myApp.scrollDown")],
                               events: Self.touch(.strip, PadMotionTests.intuos3Strip, mode: 2))
        let actions = mapped.filter { $0.contains(#""type":"action""#) }
        #expect(actions.count == 5)
        #expect(actions.allSatisfy { $0.contains(#""direction":"down""#) && $0.contains(#""mode":2"#) })
        try expectValid(actions)
        let unmapped = try lines(config: [("action-strip-0-up", "myApp.scrollUp")],
                                 events: Self.touch(.strip, PadMotionTests.intuos3Strip))
        #expect(!unmapped.contains { $0.contains(#""type":"action""#) })
    }

    private func expectValid(_ lines: [String]) throws {
        let (status, report) = try ProtocolSchemaCheck.run(lines)
        #expect(status == 0, "\(report)")
    }
}
