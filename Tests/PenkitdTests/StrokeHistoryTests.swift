@testable import penkitd
import Testing

/// The `since` history's two bounds: strokes and bytes, oldest leaving first.
@Suite struct StrokeHistoryTests {
    private func line(_ bytes: Int) -> ReliableLine { .bytes([UInt8](repeating: UInt8(ascii: "x"), count: bytes)) }

    @Test func theOldestStrokesLeaveOnceTheBytesAreOverTheBound() {
        var history = StrokeHistory(capacity: 100, byteLimit: 250)
        for seq in 1...3 { history.append(seq: UInt64(seq), line: line(100)) }
        // 300 bytes held would be over 250: stroke 1 left.
        #expect(history.entries.map(\.seq) == [2, 3])
        #expect(history.oldestSeq == 2)
        #expect(history.lastSeq == 3)
        #expect(history.missing(after: 0) == 1...1)
        #expect(history.missing(after: 1) == nil)
        #expect(history.after(0).map(\.seq) == [2, 3])
    }

    @Test func aStrokeLongerThanTheBoundAloneIsNotHeldAndIsReportedMissing() {
        var history = StrokeHistory(capacity: 100, byteLimit: 250)
        history.append(seq: 1, line: line(100))
        history.append(seq: 2, line: line(1_000))
        // Nothing fits with stroke 2, and it does not fit alone: the history is empty, yet it
        // still knows the last seq and that strokes 1 and 2 are missing for `since` 0.
        #expect(history.entries.isEmpty)
        #expect(history.lastSeq == 2)
        #expect(history.oldestSeq == 0)
        #expect(history.missing(after: 0) == 1...2)
        #expect(history.missing(after: 2) == nil)
        history.append(seq: 3, line: line(100))
        #expect(history.entries.map(\.seq) == [3])
        #expect(history.missing(after: 1) == 2...2)
    }

    @Test func aHistoryRestoredFromLaterStrokesReportsTheEarlierOnesMissing() {
        var history = StrokeHistory(capacity: 100)
        history.append(seq: 7, line: line(10))
        history.append(seq: 8, line: line(10))
        #expect(history.missing(after: 0) == 1...6)
        #expect(history.missing(after: 6) == nil)
    }

    @Test func loweringABoundLetsTheOldestGoAtOnce() {
        var history = StrokeHistory(capacity: 100, byteLimit: 1_000)
        for seq in 1...4 { history.append(seq: UInt64(seq), line: line(100)) }
        history.byteLimit = 200
        history.trim()
        #expect(history.entries.map(\.seq) == [3, 4])
        history.capacity = 1
        history.trim()
        #expect(history.entries.map(\.seq) == [4])
    }
}
