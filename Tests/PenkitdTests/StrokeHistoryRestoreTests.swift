@testable import penkitd
import PenKit
import Testing

/// After a restart, `since` finds the strokes it found before: the journal's strokes are restored
/// deflated, as the running history held them, not whole (which kept a third of them).
@Suite struct StrokeHistoryRestoreTests {
    static let second = StrokeHistoryDeflationTests.second

    @Test func aRestartHoldsWhatTheRunningHistoryHeldByteForByte() throws {
        let lines = try StrokeHistoryDeflationTests.strokeLines()
        let whole = lines.reduce(0) { $0 + $1.count }
        let limit = whole / 3
        // Running: each stroke comes two seconds after the one before and is deflated a second
        // after it came.
        var running = StrokeHistory(capacity: 1024, byteLimit: limit)
        for (index, line) in lines.enumerated() {
            let now = UInt64(index) * 2 * Self.second
            running.append(seq: UInt64(index + 1), line: .bytes(line), now: now)
            _ = running.put(running.takeForDeflating(now: now + Self.second).map { ($0.seq, DeflatedLine($0.line)) })
        }
        var restored = StrokeHistory(capacity: 1024, byteLimit: limit)
        restored.restore(lines.enumerated().map { (seq: UInt64($0.offset + 1), line: ReliableLine.bytes($0.element)) })

        // What the running history held, and a little more: running, the newest stroke is whole
        // for a second and pushes out what it will not need once deflated.
        let runningSeqs = running.entries.map(\.seq), restoredSeqs = restored.entries.map(\.seq)
        #expect(restoredSeqs.suffix(runningSeqs.count).elementsEqual(runningSeqs), "running \(runningSeqs), restored \(restoredSeqs)")
        #expect(restoredSeqs.count <= runningSeqs.count + 3)
        #expect(restored.bytes <= limit)
        // Whole, only the newest lines within the bound would be held.
        var wholeFit = 0, sum = 0
        for line in lines.reversed() where sum + line.count <= limit {
            sum += line.count
            wholeFit += 1
        }
        #expect(restoredSeqs.count >= 2 * wholeFit, "restored \(restoredSeqs.count) strokes; whole, \(wholeFit)")
        // Nothing is left to deflate, the first ones are missing, and each comes back as it was sent.
        #expect(restored.nextDeflation == .max)
        #expect(restored.lastSeq == UInt64(lines.count))
        let first = try #require(restoredSeqs.first)
        #expect(restored.missing(after: 0) == (first > 1 ? 1...(first - 1) : nil))
        for entry in restored.after(0) {
            guard case .bytes(let bytes) = entry.line else { Issue.record("stroke \(entry.seq) not whole"); continue }
            #expect(bytes == lines[Int(entry.seq) - 1], "stroke \(entry.seq)")
        }
    }

    @Test func aStrokeOverTheBoundEndsTheRestoreAsItWouldHaveLeftRunning() throws {
        let lines = try StrokeHistoryDeflationTests.strokeLines()
        let limit = lines[0].count + lines[1].count
        let huge = [UInt8](repeating: UInt8(ascii: "a"), count: limit + 1) + [UInt8(ascii: "\n")]
        var restored = StrokeHistory(capacity: 1024, byteLimit: limit)
        restored.restore([(1, .bytes(lines[0])), (2, .bytes(huge)), (3, .bytes(lines[1])), (4, .bytes(lines[2]))])
        #expect(restored.entries.map(\.seq) == [3, 4])
        #expect(restored.missing(after: 0) == 1...2)
        #expect(restored.lastSeq == 4)
    }
}
