/// penkit's file format for a `Drawing`, version 3, specified in
/// docs/drawing-format.md: a header with a signature, version and body length;
/// the strokes; a CRC-32 of everything before it. Every value round-trips bit
/// for bit. Version 1 files (no nib height, four inks) and version 2 files (no roll) still open.
public enum DrawingFile {
    /// "\u{89}PKDRAW\n": a non-ASCII first byte and a newline catch text-mode mangling, as PNG's does.
    public static let signature: [UInt8] = [0x89, 0x50, 0x4B, 0x44, 0x52, 0x41, 0x57, 0x0A]
    public static let version: UInt16 = 3
    /// Signature, version, flags, body length.
    static let headerSize = 8 + 2 + 2 + 8

    public static func encode(_ drawing: Drawing) -> [UInt8] {
        encode(drawing, version: version)
    }

    /// `version` 1 writes what penkit wrote before nib heights and the newer inks (for the
    /// tests that older files open); a stroke it cannot hold is a programming error.
    static func encode(_ drawing: Drawing, version: UInt16) -> [UInt8] {
        var body = DrawingByteWriter()
        body.varint(UInt64(drawing.strokes.count))
        for stroke in drawing.strokes { StrokeRecord.write(stroke, version: version, to: &body) }
        var file = DrawingByteWriter()
        file.bytes.reserveCapacity(headerSize + body.bytes.count + 4)
        file.bytes.append(contentsOf: signature)
        file.u16(version)
        file.u16(0)
        file.u64(UInt64(body.bytes.count))
        file.bytes.append(contentsOf: body.bytes)
        file.u32(CRC32.checksum(file.bytes[...]))
        return file.bytes
    }

    public static func decode(_ bytes: [UInt8]) throws(DrawingFormatError) -> Drawing {
        guard bytes.count >= signature.count else {
            throw bytes.elementsEqual(signature.prefix(bytes.count)) && !bytes.isEmpty
                ? .truncated(expected: headerSize + 4, found: bytes.count) : .notADrawing
        }
        guard bytes.prefix(signature.count).elementsEqual(signature) else { throw .notADrawing }
        guard bytes.count >= headerSize else { throw .truncated(expected: headerSize + 4, found: bytes.count) }
        var header = DrawingByteReader(bytes, from: signature.count, to: headerSize)
        let found = UInt16(try header.u8("version")) | UInt16(try header.u8("version")) << 8
        guard found <= version else { throw .futureVersion(found: found, supported: version) }
        guard found >= 1 else { throw .corrupt(offset: 8, reason: "version 0 does not exist") }
        let flags = UInt16(try header.u8("flags")) | UInt16(try header.u8("flags")) << 8
        guard flags == 0 else { throw .corrupt(offset: 10, reason: "unknown header flags 0x\(String(flags, radix: 16))") }
        let bodyLength = try header.u64("body length")
        guard bodyLength <= UInt64(Int.max - headerSize - 4) else {
            throw .corrupt(offset: 12, reason: "body length \(bodyLength) is impossible")
        }
        let expected = headerSize + Int(bodyLength) + 4
        guard bytes.count >= expected else { throw .truncated(expected: expected, found: bytes.count) }
        guard bytes.count == expected else {
            throw .corrupt(offset: expected, reason: "\(bytes.count - expected) bytes after the end of the drawing")
        }
        var trailer = DrawingByteReader(bytes, from: expected - 4, to: expected)
        let stored = try trailer.u32("checksum")
        let computed = CRC32.checksum(bytes[..<(expected - 4)])
        guard stored == computed else {
            throw .corrupt(offset: expected - 4, reason: "checksum \(hex(stored)) does not match the content's \(hex(computed))")
        }
        var body = DrawingByteReader(bytes, from: headerSize, to: expected - 4)
        let count = try body.count("stroke count", minimumSize: StrokeRecord.minimumSize)
        var strokes: [Stroke] = []
        strokes.reserveCapacity(count)
        for _ in 0..<count { strokes.append(try StrokeRecord.read(version: found, from: &body)) }
        guard body.remaining == 0 else { throw body.corrupt("\(body.remaining) bytes left after the last stroke") }
        return Drawing(strokes: strokes)
    }

    private static func hex(_ v: UInt32) -> String { "0x" + String(v, radix: 16) }
}
