import Glibc

/// What a journal holds after a start: its strokes, where numbering continues,
/// the strokes that were open when penkitd stopped, and what had to be repaired.
struct JournalRecovery: Sendable {
    struct Segment: Sendable, Equatable {
        var number: UInt64
        var bytes: Int
        /// Wall-clock time (µs) of its newest record; 0 when it has none.
        var newestWallTime: UInt64
    }

    /// The newest stroke records, oldest first, as many as `read`'s `keeping` allows.
    var kept = NewestStrokes()
    var strokes: [JournalRecord] { Array(kept.records) }
    /// Every stroke record read, kept or not.
    var strokeCount = 0
    var lastSeq: UInt64 = 0
    var lastStrokeID: UInt64 = 0
    /// `began` records with no stroke record: strokes open when penkitd stopped.
    var openStrokes: [JournalRecord] = []
    var segments: [Segment] = []
    /// One line per repaired torn tail, for the log.
    var repairs: [String] = []

    /// Reads every segment in `directory`, keeping the stroke records `keeping` holds. A torn
    /// tail (the newest segment ends inside a record) is cut off and reported in `repairs`;
    /// anything else that is not a valid record throws `.corrupt`; a segment of a newer format
    /// throws `.newerFormat`.
    static func read(directory: String, keeping: NewestStrokes = NewestStrokes()) throws(JournalError) -> JournalRecovery {
        var recovery = JournalRecovery(kept: keeping)
        var open: [UInt64: JournalRecord] = [:]
        let numbers = try JournalFiles.segments(in: directory)
        for number in numbers {
            let path = directory + "/" + JournalFiles.segmentName(number)
            let isNewest = number == numbers.last
            let bytes = try JournalFiles.readAll(path)
            guard let validEnd = try checkHeader(bytes, path: path, isNewest: isNewest) else {
                // A segment whose header was cut short by a crash holds nothing.
                unlink(path)
                recovery.repairs.append("\(path): removed a segment cut off in its header (\(bytes.count) bytes)")
                continue
            }
            var offset = validEnd
            var segment = Segment(number: number, bytes: bytes.count, newestWallTime: 0)
            while offset < bytes.count {
                switch JournalRecordRead.parse(bytes, at: offset) {
                case .record(let record, let end):
                    recovery.take(record, open: &open)
                    segment.newestWallTime = max(segment.newestWallTime, record.wallTime)
                    offset = end
                case .truncated where isNewest:
                    try recovery.cutTail(path, at: offset, of: bytes.count, reason: "a record cut off by a crash")
                    segment.bytes = offset
                    offset = bytes.count
                case .invalid(true, let end?) where isNewest && end == bytes.count:
                    try recovery.cutTail(path, at: offset, of: bytes.count, reason: "a last record with a bad checksum")
                    segment.bytes = offset
                    offset = bytes.count
                case .invalid where isNewest && bytes[offset...].allSatisfy({ $0 == 0 }):
                    try recovery.cutTail(path, at: offset, of: bytes.count, reason: "zeros after the last record")
                    segment.bytes = offset
                    offset = bytes.count
                case .truncated, .invalid(true, _):
                    throw .corrupt(path: path, offset: offset, reason: "a record with a bad checksum or cut short, with data after it")
                case .invalid:
                    throw .corrupt(path: path, offset: offset, reason: "not a record (bad length or kind)")
                }
            }
            recovery.segments.append(segment)
        }
        recovery.openStrokes = open.values.sorted { $0.strokeID < $1.strokeID }
        return recovery
    }

    /// The header's end, or nil for a newest segment cut off inside its header.
    private static func checkHeader(_ bytes: [UInt8], path: String, isNewest: Bool) throws(JournalError) -> Int? {
        if bytes.count < JournalFormat.fileHeaderBytes, isNewest,
           zip(bytes, JournalFormat.fileHeader()).allSatisfy({ $0 == $1 }) {
            return nil
        }
        guard bytes.count >= JournalFormat.fileHeaderBytes, Array(bytes[0..<8]) == JournalFormat.magic else {
            throw .corrupt(path: path, offset: 0, reason: "not a penkit journal segment")
        }
        let version = JournalFormat.read(UInt32.self, bytes, at: 8)
        if version > JournalFormat.version { throw .newerFormat(path: path, version: version) }
        guard version == JournalFormat.version else {
            throw .corrupt(path: path, offset: 8, reason: "unknown format version \(version)")
        }
        return JournalFormat.fileHeaderBytes
    }

    private mutating func take(_ record: JournalRecord, open: inout [UInt64: JournalRecord]) {
        lastStrokeID = max(lastStrokeID, record.strokeID)
        switch record.kind {
        case .began:
            open[record.strokeID] = record
        case .stroke:
            open[record.strokeID] = nil
            lastSeq = max(lastSeq, record.seq)
            strokeCount += 1
            kept.append(record)
        }
    }

    private mutating func cutTail(_ path: String, at offset: Int, of size: Int, reason: String) throws(JournalError) {
        guard truncate(path, off_t(offset)) == 0 else { throw .system("cannot truncate the torn tail of \(path)", errno) }
        repairs.append("\(path): cut \(size - offset) bytes at \(offset): \(reason)")
    }

    /// After corruption: the highest seq and stroke id of any valid record anywhere in
    /// `directory`, so that numbering never reuses one a client may have seen.
    static func highestNumbers(directory: String) -> (seq: UInt64, strokeID: UInt64) {
        var seq: UInt64 = 0, strokeID: UInt64 = 0
        for number in (try? JournalFiles.segments(in: directory)) ?? [] {
            guard let bytes = try? JournalFiles.readAll(directory + "/" + JournalFiles.segmentName(number)) else { continue }
            var offset = 0
            while offset + JournalFormat.recordHeaderBytes < bytes.count {
                // Cheap checks first (kind, zero padding, a JSON line), so a scan of every offset stays linear in practice.
                if bytes[offset + 9] == 0, bytes[offset + 10] == 0, bytes[offset + 11] == 0,
                   JournalFormat.Kind(rawValue: bytes[offset + 8]) != nil,
                   bytes[offset + JournalFormat.recordHeaderBytes] == UInt8(ascii: "{"),
                   case .record(let record, let end) = JournalRecordRead.parse(bytes, at: offset) {
                    seq = max(seq, record.seq)
                    strokeID = max(strokeID, record.strokeID)
                    offset = end
                } else {
                    offset += 1
                }
            }
        }
        return (seq, strokeID)
    }
}
