/// The journal's on-disk layout (docs/daemon.md, "Stroke journal"). Little-endian.
///
/// A segment file starts with a 16-byte header: the magic `PKJOURNL`, the format
/// version (UInt32), 4 zero bytes. Records follow, each:
///
///     UInt32 payload length   UInt32 CRC-32C of everything after it (kind … payload)
///     UInt8 kind, 3 zero bytes
///     UInt64 seq (strokes; 0 for began)   UInt64 stroke id   UInt64 wall-clock time (µs)
///     payload: the exact line clients are sent, newline included
enum JournalFormat {
    static let magic: [UInt8] = Array("PKJOURNL".utf8)
    static let version: UInt32 = 1
    static let fileHeaderBytes = 16
    static let recordHeaderBytes = 36
    /// Larger than any stroke line the engine writes (maxSamplesPerStroke bounds it);
    /// a length above it can only be corruption.
    static let maxPayloadBytes = 64 << 20

    enum Kind: UInt8, Sendable {
        /// A finalized stroke, exactly as sent.
        case stroke = 1
        /// A stroke began; if no `stroke` record with its id follows, it was open at a crash.
        case began = 2
    }

    static func fileHeader() -> [UInt8] {
        var bytes = magic
        append(version, to: &bytes)
        append(UInt32(0), to: &bytes)
        return bytes
    }

    /// Appends one whole record to `out`.
    static func encode(kind: Kind, seq: UInt64, strokeID: UInt64, wallTime: UInt64, payload: [UInt8],
                       into out: inout [UInt8]) {
        encodeHeader(kind: kind, seq: seq, strokeID: strokeID, wallTime: wallTime, payload: payload, into: &out)
        out.append(contentsOf: payload)
    }

    /// The record's header alone (`headerBytes`), its CRC over the rest of the header and the
    /// payload: the writer hands header and payload to one writev(2), so a long stroke's payload
    /// is never copied into a record buffer.
    static func encodeHeader(kind: Kind, seq: UInt64, strokeID: UInt64, wallTime: UInt64, payload: [UInt8],
                             into out: inout [UInt8]) {
        payload.withUnsafeBytes { encodeHeader(kind: kind, seq: seq, strokeID: strokeID, wallTime: wallTime, payload: [$0], into: &out) }
    }

    /// The same for a payload in pieces: the checksum runs over the pieces in order, as over the
    /// line they make.
    static func encodeHeader(kind: Kind, seq: UInt64, strokeID: UInt64, wallTime: UInt64, payload: [UnsafeRawBufferPointer],
                             into out: inout [UInt8]) {
        let start = out.count
        let headerCRC = encodeHeader(kind: kind, seq: seq, strokeID: strokeID, wallTime: wallTime,
                                     payloadBytes: payload.reduce(0) { $0 + $1.count }, into: &out)
        let crc = payload.reduce(headerCRC) { CRC32C.checksum($1, seed: $0) }
        setChecksum(crc, ofHeaderAt: start, in: &out)
    }

    /// A header whose checksum is not known yet (0 in its place): its payload is written after it
    /// piece by piece (a long stroke's whole line, `PartedStroke`). Returns the checksum of the
    /// header's own fields, which `CRC32C.checksum(_:seed:)` continues over the payload.
    static func encodeHeader(kind: Kind, seq: UInt64, strokeID: UInt64, wallTime: UInt64, payloadBytes: Int,
                             into out: inout [UInt8]) -> UInt32 {
        let start = out.count
        append(UInt32(payloadBytes), to: &out)
        append(UInt32(0), to: &out)  // the CRC, once known
        out.append(kind.rawValue)
        out.append(contentsOf: [0, 0, 0])
        append(seq, to: &out)
        append(strokeID, to: &out)
        append(wallTime, to: &out)
        return CRC32C.checksum(out[(start + 8)...])
    }

    /// Where a record's checksum lies in its header.
    static let checksumOffset = 4

    static func setChecksum(_ crc: UInt32, ofHeaderAt start: Int, in out: inout [UInt8]) {
        withUnsafeBytes(of: crc.littleEndian) { raw in
            for i in 0..<4 { out[start + checksumOffset + i] = raw[i] }
        }
    }

    static func append<T: FixedWidthInteger>(_ value: T, to out: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { out.append(contentsOf: $0) }
    }

    static func read<T: FixedWidthInteger>(_ type: T.Type, _ bytes: [UInt8], at offset: Int) -> T {
        var value: T = 0
        withUnsafeMutableBytes(of: &value) { raw in
            for i in 0..<MemoryLayout<T>.size { raw[i] = bytes[offset + i] }
        }
        return T(littleEndian: value)
    }
}

/// One record read back from a segment.
struct JournalRecord: Sendable, Equatable {
    var kind: JournalFormat.Kind
    var seq: UInt64
    var strokeID: UInt64
    var wallTime: UInt64
    var payload: [UInt8]
}

/// What one record position in a segment holds.
enum JournalRecordRead: Equatable {
    case record(JournalRecord, end: Int)
    /// The record's header or payload runs past the end of the file.
    case truncated
    /// The bytes do not form a valid record (bad length, kind or checksum).
    case invalid(checksumOnly: Bool, end: Int?)

    static func parse(_ bytes: [UInt8], at offset: Int) -> JournalRecordRead {
        guard bytes.count - offset >= JournalFormat.recordHeaderBytes else { return .truncated }
        let length = Int(JournalFormat.read(UInt32.self, bytes, at: offset))
        guard length > 0, length <= JournalFormat.maxPayloadBytes else { return .invalid(checksumOnly: false, end: nil) }
        let end = offset + JournalFormat.recordHeaderBytes + length
        guard end <= bytes.count else { return .truncated }
        let stored = JournalFormat.read(UInt32.self, bytes, at: offset + 4)
        guard CRC32C.checksum(bytes[(offset + 8)..<end]) == stored else { return .invalid(checksumOnly: true, end: end) }
        guard let kind = JournalFormat.Kind(rawValue: bytes[offset + 8]) else { return .invalid(checksumOnly: false, end: end) }
        return .record(JournalRecord(kind: kind,
                                     seq: JournalFormat.read(UInt64.self, bytes, at: offset + 12),
                                     strokeID: JournalFormat.read(UInt64.self, bytes, at: offset + 20),
                                     wallTime: JournalFormat.read(UInt64.self, bytes, at: offset + 28),
                                     payload: Array(bytes[(offset + JournalFormat.recordHeaderBytes)..<end])), end: end)
    }
}
