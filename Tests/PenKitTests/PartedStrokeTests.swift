import Foundation
import PenKit
import Testing

/// `PartedStroke` and `StrokeAssembler` on the strokes of a real replay (Tests/Fixtures/stroke-parts:
/// what penkitd sent a client without parts and one with parts of 8 points, README.md says how).
@Suite struct PartedStrokeTests {
    private static func fixture(_ name: String) throws -> [String] {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let text = try String(contentsOf: root.appendingPathComponent("Tests/Fixtures/stroke-parts/\(name)"), encoding: .utf8)
        return text.split(separator: "\n").map(String.init)
    }

    private static func strokes() throws -> [FinalizedStroke] {
        try fixture("whole.jsonl").map { line in
            guard case .stroke(let stroke) = try EngineMessage.decode(jsonLine: line) else { throw StrokeAssembler.Error(description: "not a stroke: \(line.prefix(60))") }
            return stroke
        }
    }

    @Test func theWholeLineFromPartsIsTheStrokesOwnLineByteForByte() throws {
        for (finalized, line) in zip(try Self.strokes(), try Self.fixture("whole.jsonl")) {
            for points in [1, 2, 3, 8, 100] {
                guard let parted = PartedStroke.encode(finalized, pointsPerPart: points) else {
                    #expect(finalized.stroke.points.count <= points && finalized.stroke.path.controlPoints.count <= points)
                    continue
                }
                #expect(parted.wholeLine() == Array((line + "\n").utf8))
                #expect(parted.wholeCount == line.utf8.count + 1)
            }
        }
    }

    /// A client that takes whole strokes gets the line one part's worth of pieces at a time
    /// (`withWholeLineGroup`); those pieces in order are the line, and so are the journal's
    /// (`forEachWholeLineGroup`), and the sizes counted when the stroke was made are theirs.
    @Test func theWholeLineGroupByGroupIsTheLineAndTheCountsAreTheLines() throws {
        for (finalized, line) in zip(try Self.strokes(), try Self.fixture("whole.jsonl")) {
            // Parts kept from the pass that measured them, and parts encoded when read.
            for points in [1, 3, 8] {
                for kept in [0, PartedStroke.keptLineBytes] {
                    guard let parted = PartedStroke.encode(finalized, pointsPerPart: points, keptLineBytes: kept,
                                                           cache: EncodedPartCache(capacity: 4)) else { continue }
                    var grouped: [UInt8] = []
                    for group in 0..<parted.wholeLineGroupCount {
                        parted.withWholeLineGroup(group) { pieces in for piece in pieces { grouped.append(contentsOf: piece) } }
                    }
                    #expect(grouped == Array((line + "\n").utf8))
                    #expect(parted.wholeLine() == grouped)
                    #expect(parted.wholeLineGroupCount == parted.partCount)
                    var partedBytes = 0
                    for index in 0..<parted.partedLineCount { partedBytes += parted.withPartedLine(index) { $0.count } }
                    #expect(partedBytes == parted.partedCount)
                }
            }
        }
    }

    /// Parts are encoded when read, and kept only in a bounded cache that readers at the same place
    /// share: two clients reading in step encode each part once; the cache never holds more than
    /// its capacity, and lets a stroke's parts go with the stroke.
    @Test func partsAreEncodedWhenReadAndTheCacheStaysBounded() throws {
        let finalized = try #require(try Self.strokes().max { $0.stroke.points.count < $1.stroke.points.count })
        let cache = EncodedPartCache(capacity: 4)
        var parted = PartedStroke.encode(finalized, pointsPerPart: 2, keptLineBytes: 0, cache: cache)
        do {
            let stroke = try #require(parted)
            #expect(stroke.partCount > 8)
            #expect(cache.lookups.hits == 0 && cache.lookups.misses == 0 && cache.heldBytes == 0)
            var longest = 0
            for index in 0..<stroke.partCount {
                let first = stroke.withPartedLine(index) { Array($0) }
                let second = stroke.withWholeLineGroup(index) { _ in stroke.withPartedLine(index) { Array($0) } }
                #expect(first == second)
                longest = max(longest, first.count)
                #expect(cache.heldBytes <= 4 * longest)
            }
            // Each part encoded once (by the first reader), then found by the whole line's group
            // and by the second reader inside it.
            #expect(cache.lookups.misses == stroke.partCount)
            #expect(cache.lookups.hits == 2 * stroke.partCount)
            #expect(cache.heldBytes > 0)
        }
        parted = nil
        #expect(cache.heldBytes == 0)
    }

    @Test func partsHoldAtMostTheirSizeAndPutTogetherGiveTheWholeLine() throws {
        let whole = try Self.fixture("whole.jsonl")
        for (finalized, line) in zip(try Self.strokes(), whole) {
            guard let parted = PartedStroke.encode(finalized, pointsPerPart: 3) else { continue }
            var assembler = StrokeAssembler()
            var out: [String] = []
            for index in 0..<parted.partedLineCount {
                let text = parted.withPartedLine(index) { String(decoding: $0.dropLast(), as: UTF8.self) }
                if index < parted.partCount {
                    let fields = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] ?? [:]
                    let count = ((fields["points"] ?? fields["controlPoints"]) as? [Any])?.count ?? 0
                    #expect((1...3).contains(count))
                }
                if let taken = try assembler.take(text) { out.append(taken) }
            }
            #expect(out == [line])
        }
    }

    /// The parts penkitd sent for the fixture are the parts this build makes of the same strokes.
    @Test func thePartsPenkitdSentAreThePartsOfTheStrokes() throws {
        var expected: [String] = []
        for finalized in try Self.strokes() {
            if let parted = PartedStroke.encode(finalized, pointsPerPart: 8) {
                for index in 0..<parted.partedLineCount {
                    expected.append(parted.withPartedLine(index) { String(decoding: $0.dropLast(), as: UTF8.self) })
                }
            } else {
                expected.append(EngineMessage.stroke(finalized).jsonLine())
            }
        }
        #expect(expected == (try Self.fixture("parts.jsonl")))
    }

    @Test func badPartsAreRefusedWithWhatWasWrong() throws {
        let parts = try Self.fixture("parts.jsonl")
        let first = try #require(parts.firstIndex { $0.hasPrefix("{\"type\":\"strokePart\"") })
        func run(_ lines: [String], maxPoints: Int = StrokeAssembler.defaultMaxPoints) -> String? {
            var assembler = StrokeAssembler(maxPoints: maxPoints)
            do {
                for line in lines { _ = try assembler.take(line) }
                return nil
            } catch {
                return error.description
            }
        }
        #expect(run(parts) == nil)
        var swapped = parts
        swapped.swapAt(first + 1, first + 2)
        #expect(run(swapped)?.contains("was due") == true)
        var missing = parts
        missing.remove(at: first)
        #expect(run(missing)?.contains("without its parts before it") == true)
        #expect(run(parts, maxPoints: 10)?.contains("grows past 10 points") == true)
        let closing = try #require(parts.firstIndex { $0.contains("\"parts\":") })
        var miscounted = parts
        miscounted[closing] = miscounted[closing].replacingOccurrences(of: "\"parts\":", with: "\"parts\":1")
        #expect(run(miscounted)?.contains("closes") == true)
        var broken = parts
        broken[first] = "{\"type\":\"strokePart\",\"seq\":1}"
        #expect(run(broken)?.contains("malformed") == true)
    }
}
