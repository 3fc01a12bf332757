/// Reads the primitive encodings of the drawing format; every read checks the
/// bytes left, and every failure names the offset.
struct DrawingByteReader {
    let bytes: [UInt8]
    var offset: Int
    let end: Int

    init(_ bytes: [UInt8], from start: Int, to end: Int) {
        self.bytes = bytes
        offset = start
        self.end = end
    }

    var remaining: Int { end - offset }

    func corrupt(_ reason: String) -> DrawingFormatError { .corrupt(offset: offset, reason: reason) }

    private mutating func take(_ count: Int, _ what: String) throws(DrawingFormatError) -> Int {
        guard count <= remaining else { throw corrupt("\(what) runs past the end of the data") }
        defer { offset += count }
        return offset
    }

    mutating func u8(_ what: String) throws(DrawingFormatError) -> UInt8 {
        bytes[try take(1, what)]
    }

    mutating func u32(_ what: String) throws(DrawingFormatError) -> UInt32 {
        let at = try take(4, what)
        var v: UInt32 = 0
        for i in 0..<4 { v |= UInt32(bytes[at + i]) << UInt32(8 * i) }
        return v
    }

    mutating func u64(_ what: String) throws(DrawingFormatError) -> UInt64 {
        let at = try take(8, what)
        var v: UInt64 = 0
        for i in 0..<8 { v |= UInt64(bytes[at + i]) << UInt64(8 * i) }
        return v
    }

    mutating func f64(_ what: String) throws(DrawingFormatError) -> Double {
        Double(bitPattern: try u64(what))
    }

    mutating func varint(_ what: String) throws(DrawingFormatError) -> UInt64 {
        var v: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            let b = try u8(what)
            guard shift < 64, shift < 63 || b <= 1 else { throw corrupt("\(what) is longer than 64 bits") }
            v |= UInt64(b & 0x7F) << shift
            if b & 0x80 == 0 { return v }
            shift += 7
        }
    }

    mutating func zigzag(_ what: String) throws(DrawingFormatError) -> Int64 {
        let u = try varint(what)
        return Int64(bitPattern: u >> 1) ^ -Int64(bitPattern: u & 1)
    }

    /// A count of items each at least `minimumSize` bytes long: more than the
    /// bytes left could hold is corrupt (and never allocated).
    mutating func count(_ what: String, minimumSize: Int) throws(DrawingFormatError) -> Int {
        let n = try varint(what)
        guard n <= UInt64(remaining / max(minimumSize, 1)) else {
            throw corrupt("\(what) \(n) does not fit in the \(remaining) bytes left")
        }
        return Int(n)
    }

    mutating func string(_ what: String) throws(DrawingFormatError) -> String {
        let n = try count(what, minimumSize: 1)
        let at = try take(n, what)
        guard let s = String(validating: bytes[at..<(at + n)], as: UTF8.self) else { throw corrupt("\(what) is not UTF-8") }
        return s
    }

    mutating func packed(previous: Double, _ what: String) throws(DrawingFormatError) -> Double {
        let header = try u8(what)
        if header == 0x88 { return previous }
        let leading = Int(header >> 4), trailing = Int(header & 0x0F)
        guard leading + trailing <= 7 else { throw corrupt("\(what) has a bad packed header 0x\(String(header, radix: 16))") }
        var x: UInt64 = 0
        for _ in 0..<(8 - leading - trailing) { x = x << 8 | UInt64(try u8(what)) }
        x <<= UInt64(8 * trailing)
        return Double(bitPattern: previous.bitPattern ^ x)
    }
}
