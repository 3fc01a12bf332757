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

    /// A record whose payload comes a group of pieces at a time (a long stroke's whole line, never
    /// whole in memory) goes out header first, its checksum written in last: the segment then
    /// holds the record of the same bytes given in one buffer. A payload that comes short of the
    /// length it was measured at is refused and leaves nothing of itself in the file.
    @Test func aRecordWrittenGroupByGroupReadsBackAndAShortOneLeavesNothing() throws {
        var generator = SystemRandomNumberGenerator()
        let groups: [[[UInt8]]] = (0..<40).map { _ in
            (0..<Int.random(in: 1...4, using: &generator)).map { _ in
                (0..<Int.random(in: 0...300, using: &generator)).map { _ in UInt8.random(in: 32...126, using: &generator) }
            }
        }
        let payload = groups.flatMap { $0.flatMap { $0 } }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("journal-groups-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var options = JournalOptions()
        options.fsync = .never
        var writer = try JournalWriter(directory: directory, options: options, segments: [],
                                       floor: try SeqFloor(directory: directory, seq: 0, strokeID: 0, sync: false))
        func write(stating bytes: Int, seq: UInt64) throws(JournalError) {
            try writer.append(kind: .stroke, seq: seq, strokeID: 9, payloadBytes: bytes, wallTime: 11) { write in
                for group in groups {
                    guard withPointers(group, [], { write($0) }) else { return }
                }
            }
        }
        try write(stating: payload.count, seq: 7)
        #expect(throws: JournalError.self) { try write(stating: payload.count + 1, seq: 8) }
        writer.close()

        let recovery = try JournalRecovery.read(directory: directory)
        #expect(recovery.repairs.isEmpty)
        #expect(recovery.strokes == [JournalRecord(kind: .stroke, seq: 7, strokeID: 9, wallTime: 11, payload: payload)])
        var one: [UInt8] = []
        JournalFormat.encode(kind: .stroke, seq: 7, strokeID: 9, wallTime: 11, payload: payload, into: &one)
        #expect(recovery.segments.map(\.bytes) == [JournalFormat.fileHeaderBytes + one.count])

        // Killed before its checksum was written in, a record is what the writer leaves: header
        // with checksum 0, then the payload. Recovery cuts it off as a torn tail; the rest stands.
        var torn: [UInt8] = []
        JournalFormat.encode(kind: .stroke, seq: 8, strokeID: 10, wallTime: 12, payload: payload, into: &torn)
        JournalFormat.setChecksum(0, ofHeaderAt: 0, in: &torn)
        let segment = directory + "/" + JournalFiles.segmentName(try #require(recovery.segments.first).number)
        let handle = try #require(FileHandle(forWritingAtPath: segment))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(torn))
        try handle.close()
        let afterKill = try JournalRecovery.read(directory: directory)
        #expect(afterKill.repairs.count == 1 && afterKill.repairs.first?.contains("bad checksum") == true)
        #expect(afterKill.strokes == recovery.strokes)
    }

    /// Pointers to every array's bytes at once, for as long as `body` runs.
    private func withPointers<R>(_ arrays: [[UInt8]], _ done: [UnsafeRawBufferPointer] = [],
                                 _ body: ([UnsafeRawBufferPointer]) throws -> R) rethrows -> R {
        guard let first = arrays.first else { return try body(done) }
        return try first.withUnsafeBytes { try withPointers(Array(arrays.dropFirst()), done + [$0], body) }
    }
}
