import Foundation
import Glibc
@testable import penkitd
import Testing

/// A journal record written from pieces (a long stroke's whole line, `PartedStroke`) is the record
/// of the same bytes in one buffer: one writev(2) per 1024 pieces at most, resumed across calls,
/// and a checksum over the pieces in order.
@Suite struct JournalPiecesTests {
    @Test func aRecordFromMorePiecesThanOneWritevTakesReadsBackAsItsBytes() throws {
        var generator = SystemRandomNumberGenerator()
        // 3000 pieces of 0 to 40 bytes: three writev calls and more, empty pieces among them.
        let pieces: [[UInt8]] = (0..<3000).map { _ in (0..<Int.random(in: 0...40, using: &generator)).map { _ in UInt8.random(in: 32...126, using: &generator) } }
        let payload = pieces.flatMap { $0 }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("journal-pieces-\(UUID().uuidString.prefix(8))").path
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        #expect(fd >= 0)
        defer { close(fd); unlink(path) }
        var header: [UInt8] = []
        try withPointers(pieces) { buffers in
            JournalFormat.encodeHeader(kind: .stroke, seq: 7, strokeID: 9, wallTime: 11, payload: buffers, into: &header)
            try header.withUnsafeBytes { h in try JournalFiles.writeAll(fd, pieces: [h] + buffers, restoringTo: 0, path: path) }
        }
        // The same record made from one buffer, as before pieces existed.
        var whole: [UInt8] = []
        JournalFormat.encode(kind: .stroke, seq: 7, strokeID: 9, wallTime: 11, payload: payload, into: &whole)
        let written = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(written == whole)
        guard case .record(let record, let end) = JournalRecordRead.parse(written, at: 0) else {
            Issue.record("the record does not parse")
            return
        }
        #expect(end == written.count)
        #expect(record.payload == payload && record.seq == 7 && record.strokeID == 9)
    }

    /// Pointers to every array's bytes at once, for as long as `body` runs.
    private func withPointers<R>(_ arrays: [[UInt8]], _ done: [UnsafeRawBufferPointer] = [],
                                 _ body: ([UnsafeRawBufferPointer]) throws -> R) rethrows -> R {
        guard let first = arrays.first else { return try body(done) }
        return try first.withUnsafeBytes { try withPointers(Array(arrays.dropFirst()), done + [$0], body) }
    }
}
