import Foundation
import Logging
@testable import penkitd
import Testing

/// A start reads from the journal only the strokes the history will hold: the newest, within
/// `history-strokes` and `history-bytes`, as `StrokeHistory` itself would keep them.
@Suite struct NewestStrokesTests {
    private func record(seq: Int, bytes: Int) -> JournalRecord {
        JournalRecord(kind: .stroke, seq: UInt64(seq), strokeID: UInt64(seq), wallTime: 0,
                      payload: [UInt8](repeating: UInt8(ascii: "x"), count: bytes))
    }

    /// Against the history the hub keeps, fed the same strokes: random sizes, a stroke longer
    /// than the byte bound among them, each bound the one that binds in turn.
    @Test(arguments: [(count: 5, bytes: 100_000), (count: 1_000, bytes: 4_000), (count: 7, bytes: 3_000)])
    func keepsTheStrokesTheHistoryKeeps(bounds: (count: Int, bytes: Int)) {
        var generator = SystemRandomNumberGenerator()
        var history = StrokeHistory(capacity: bounds.count, byteLimit: bounds.bytes)
        var kept = NewestStrokes(count: bounds.count, bytes: bounds.bytes)
        for seq in 1...300 {
            let bytes = seq == 150 ? bounds.bytes + 1 : Int.random(in: 1...900, using: &generator)
            let stroke = record(seq: seq, bytes: bytes)
            history.append(seq: stroke.seq, line: .bytes(stroke.payload))
            kept.append(stroke)
            #expect(kept.records.map(\.seq) == history.entries.map(\.seq), "after stroke \(seq)")
        }
        #expect(!kept.records.isEmpty)
    }

    /// 200 strokes of 1000 bytes journaled, then a start with room for 24 of them by bytes (a
    /// history of 3050 bytes: recovery keeps eight times that whole, for the history to choose
    /// the ones that fit deflated; 50 by count), then for 10 by count: the newest that fit,
    /// oldest first; numbering still continues after the newest stroke of all.
    @Test func aStartRestoresTheNewestStrokesThatFit() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("newest-strokes-\(UUID().uuidString.prefix(8))").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var options = JournalOptions()
        options.fsync = .never
        let logger = Logger(label: "test")
        let first = try StrokeJournal.open(stateDirectory: directory, options: options, historyStrokes: 1_024,
                                           historyBytes: 16 << 20, logger: logger)
        let journal = try #require(first.journal)
        for seq in 1...200 { journal.record(.stroke, seq: UInt64(seq), strokeID: UInt64(seq), line: record(seq: seq, bytes: 1_000).payload) }
        journal.close()

        for (strokes, bytes, newest) in [(50, 3_050, 24), (10, 16 << 20, 10)] {
            let opened = try StrokeJournal.open(stateDirectory: directory, options: options, historyStrokes: strokes,
                                                historyBytes: bytes, logger: logger)
            #expect(opened.history.map(\.seq) == (201 - UInt64(newest)...200).map { $0 })
            #expect(opened.history.allSatisfy { $0.payload.count == 1_000 })
            #expect(opened.lastSeq == 200)
            opened.journal?.close()
        }
    }
}
