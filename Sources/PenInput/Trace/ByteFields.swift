/// Whitespace-separated fields of one text line, read straight from its bytes: the evemu reader
/// parses tens of thousands of lines, and Strings per field would dominate its time.
/// A `#` ends the fields (the rest of the line is a comment). It indexes a raw pointer, not a
/// buffer, because pointer subscripts are inlined even in debug builds and buffer subscripts are not;
/// every index it reads lies in `start..<end`, which the caller takes from a valid buffer.
struct ByteFields {
    let bytes: UnsafePointer<UInt8>
    private(set) var index: Int
    let end: Int

    init(_ bytes: UnsafePointer<UInt8>, from start: Int, to end: Int) {
        self.bytes = bytes
        self.index = start
        self.end = end
    }

    /// The next four fields in one pass, and how many fields there were in all.
    mutating func next4() -> (fields: (Range<Int>, Range<Int>, Range<Int>, Range<Int>), count: Int) {
        let empty = 0..<0
        var f = (empty, empty, empty, empty)
        var count = 0
        while let field = next() {
            switch count {
            case 0: f.0 = field
            case 1: f.1 = field
            case 2: f.2 = field
            case 3: f.3 = field
            default: break
            }
            count += 1
        }
        return (f, count)
    }

    /// The next field, or nil at the end of the line or at a comment.
    mutating func next() -> Range<Int>? {
        while index < end && (bytes[index] == 0x20 || bytes[index] == 0x09) { index += 1 }
        guard index < end && bytes[index] != UInt8(ascii: "#") else { return nil }
        let start = index
        while index < end && bytes[index] != 0x20 && bytes[index] != 0x09 && bytes[index] != UInt8(ascii: "#") {
            index += 1
        }
        return start..<index
    }

    /// How many fields remain, without consuming them.
    func remainingCount() -> Int {
        var copy = self
        var count = 0
        while copy.next() != nil { count += 1 }
        return count
    }

    func text(_ range: Range<Int>) -> String {
        String(decoding: UnsafeBufferPointer(start: bytes + range.lowerBound, count: range.count), as: UTF8.self)
    }

    /// Hexadecimal without prefix (evemu writes `%04x`, `%02x`); nil if not hex or above `max`.
    func hex(_ range: Range<Int>, max: UInt64) -> UInt64? {
        guard !range.isEmpty, range.count <= 16 else { return nil }
        var value: UInt64 = 0
        for i in range {
            let b = bytes[i]
            let digit: UInt64
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt64(b - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt64(b - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt64(b - UInt8(ascii: "A") + 10)
            default: return nil
            }
            value = value << 4 | digit
        }
        return value <= max ? value : nil
    }

    /// Unsigned decimal (leading zeros allowed, as in evemu's `%04d` values); nil past `max`.
    func unsigned(_ range: Range<Int>, max: UInt64) -> UInt64? {
        guard !range.isEmpty else { return nil }
        var value: UInt64 = 0
        for i in range {
            let b = bytes[i]
            guard b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") else { return nil }
            let (times10, o1) = value.multipliedReportingOverflow(by: 10)
            let (sum, o2) = times10.addingReportingOverflow(UInt64(b - UInt8(ascii: "0")))
            guard !o1 && !o2 && sum <= max else { return nil }
            value = sum
        }
        return value
    }

    /// Signed 32-bit decimal, as evemu writes event values and axis ranges (`-001` included).
    func int32(_ range: Range<Int>) -> Int32? {
        guard !range.isEmpty else { return nil }
        let negative = bytes[range.lowerBound] == UInt8(ascii: "-")
        let digits = (negative || bytes[range.lowerBound] == UInt8(ascii: "+")) ? range.dropFirst() : range
        guard let magnitude = unsigned(digits, max: negative ? UInt64(Int32.max) + 1 : UInt64(Int32.max)) else { return nil }
        return negative ? Int32(truncatingIfNeeded: 0 &- Int64(magnitude)) : Int32(magnitude)
    }
}
