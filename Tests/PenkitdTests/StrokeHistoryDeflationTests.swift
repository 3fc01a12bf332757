import Foundation
@testable import penkitd
import PenEngine
import PenEvaluation
import PenInput
import PenKit
import Testing

/// The history keeps strokes held over a second deflated, and gives each back byte for byte.
/// The lines are real: a trace's strokes as penkitd encodes them.
@Suite struct StrokeHistoryDeflationTests {
    static let second: UInt64 = 1_000_000

    static func strokeLines() throws -> [[UInt8]] {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("traces/wacom-cintiq-22hdt-pen.evemu").path
        var lines: [[UInt8]] = []
        let device = try #require(try TraceFile.load(path: path).devices.first)
        let events = try TabletDecoder.decode(device.events, device: device.description, options: DecoderOptions())
        var replay = EngineReplay(prediction: EnginePrediction.penkit(smoothed: true))
        replay.run(events.map { EngineReplay.Input(device: 1, event: $0) }) { message in
            if case .stroke = message { lines.append(Array((message.jsonLine() + "\n").utf8)) }
        }
        return lines
    }

    @Test func strokesHeldASecondAreDeflatedAndComeBackWhole() throws {
        let lines = try Self.strokeLines()
        #expect(lines.count > 20)
        var history = StrokeHistory(capacity: 1024)
        let t0: UInt64 = 5 * Self.second
        for (i, line) in lines.enumerated() { history.append(seq: UInt64(i + 1), line: .bytes(line), now: t0 + UInt64(i)) }
        #expect(history.nextDeflation == t0 + Self.second)
        // not yet due
        #expect(history.takeForDeflating(now: t0 + Self.second - 1).isEmpty)
        // due: taken oldest first, at most `limit` a pass
        let taken = history.takeForDeflating(now: t0 + Self.second + 10, limit: 8)
        #expect(taken.map(\.seq) == Array(1...8))
        _ = history.put(taken.map { ($0.seq, DeflatedLine($0.line)) })
        #expect(history.nextDeflation == t0 + 8 + Self.second)
        while case let more = history.takeForDeflating(now: t0 + 2 * Self.second), !more.isEmpty {
            _ = history.put(more.map { ($0.seq, DeflatedLine($0.line)) })
        }
        #expect(history.nextDeflation == .max)
        let held = history.entries.reduce(0) { sum, entry in
            if case .deflated(let line) = entry.line {
                // What it takes in memory, not only what it counts: a deflated line that kept the
                // whole line's buffer would weigh as much as before.
                #expect(line.bytes.capacity < line.bytes.count + 64, "stroke \(entry.seq): capacity \(line.bytes.capacity) for \(line.bytes.count) bytes")
                return sum + line.bytes.count
            }
            Issue.record("stroke \(entry.seq) is still whole")
            return sum
        }
        let whole = lines.reduce(0) { $0 + $1.count }
        #expect(held * 2 < whole, "deflated \(held) of \(whole) bytes")
        // `since` gets every line exactly as it was published
        let replayed = history.after(0)
        #expect(replayed.map(\.seq) == Array(1...UInt64(lines.count)))
        for (entry, line) in zip(replayed, lines) {
            guard case .bytes(let bytes) = entry.line else { Issue.record("not whole"); continue }
            #expect(bytes == line, "stroke \(entry.seq)")
        }
        #expect(history.after(UInt64(lines.count - 2)).map(\.seq) == [UInt64(lines.count - 1), UInt64(lines.count)])
    }

    @Test func aStrokeThatLeftWhileDeflatingIsDroppedAndATinyOneStaysWhole() throws {
        let lines = try Self.strokeLines()
        var history = StrokeHistory(capacity: 3)
        history.append(seq: 1, line: .bytes(lines[0]), now: 0)
        history.append(seq: 2, line: .bytes(Array("{}\n".utf8)), now: 0)
        let taken = history.takeForDeflating(now: Self.second)
        #expect(taken.map(\.seq) == [1, 2])
        // strokes 3 to 5 come meanwhile: stroke 1 and 2 leave
        for seq in 3...5 as ClosedRange<UInt64> { history.append(seq: seq, line: .bytes(lines[Int(seq)]), now: 10) }
        _ = history.put(taken.map { ($0.seq, DeflatedLine($0.line)) })
        #expect(history.entries.map(\.seq) == [3, 4, 5])
        #expect(history.entries.allSatisfy { if case .whole = $0.line { true } else { false } })
        #expect(history.nextDeflation == 10 + Self.second)

        // a line zlib cannot shrink stays whole and is not taken again
        var small = StrokeHistory(capacity: 10)
        small.append(seq: 1, line: .bytes(Array("{}\n".utf8)), now: 0)
        let once = small.takeForDeflating(now: Self.second)
        #expect(DeflatedLine(once[0].line) == nil)
        _ = small.put(once.map { ($0.seq, DeflatedLine($0.line)) })
        #expect(small.takeForDeflating(now: 2 * Self.second).isEmpty && small.nextDeflation == .max)
        #expect(small.after(0).count == 1)
    }

    @Test func theSocketLoopIsWokenOnlyWhenNoStrokeWasWaiting() throws {
        let lines = try Self.strokeLines()
        var history = StrokeHistory(capacity: 10)
        history.append(seq: 1, line: .bytes(lines[0]), now: 0)
        #expect(history.wakeForDeflating)
        history.wakeForDeflating = false
        history.append(seq: 2, line: .bytes(lines[1]), now: 1)
        // the loop already has a deadline for stroke 1, which is before stroke 2's
        #expect(!history.wakeForDeflating)
        while case let more = history.takeForDeflating(now: 2 * Self.second), !more.isEmpty {
            _ = history.put(more.map { ($0.seq, DeflatedLine($0.line)) })
        }
        history.append(seq: 3, line: .bytes(lines[2]), now: 3 * Self.second)
        #expect(history.wakeForDeflating)
    }

    /// `history-bytes` bounds what the history weighs in memory: deflated strokes make room.
    @Test func deflatedStrokesWeighTheirDeflatedBytesSoMoreFit() throws {
        let lines = Array(try Self.strokeLines().prefix(20))
        let firstTen = lines.prefix(10).reduce(0) { $0 + $1.count }
        var history = StrokeHistory(capacity: 100, byteLimit: firstTen)
        for (i, line) in lines.prefix(10).enumerated() { history.append(seq: UInt64(i + 1), line: .bytes(line), now: 0) }
        #expect(history.entries.count == 10 && history.bytes == firstTen)
        // whole, an eleventh stroke would push the first out
        var whole = history
        whole.append(seq: 11, line: .bytes(lines[10]), now: 0)
        #expect(whole.entries.first?.seq != 1)
        while case let more = history.takeForDeflating(now: Self.second), !more.isEmpty {
            _ = history.put(more.map { ($0.seq, DeflatedLine($0.line)) })
        }
        #expect(history.bytes * 2 < firstTen)
        for (i, line) in lines.dropFirst(10).prefix(3).enumerated() { history.append(seq: UInt64(i + 11), line: .bytes(line), now: Self.second) }
        #expect(history.entries.map(\.seq) == Array(1...13))
    }
}
