/// A minimal JSON writer for the hot path: appends UTF-8 bytes to one buffer,
/// no Foundation. Doubles print in Swift's shortest round-trip form; a
/// non-finite double (which the engine never produces) prints as null rather
/// than invalid JSON.
public struct JSONWriter {
    public private(set) var bytes: [UInt8]

    public init(capacity: Int = 512) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    public var text: String { String(decoding: bytes, as: UTF8.self) }

    @inline(__always) public mutating func raw(_ s: StaticString) {
        s.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    @inline(__always) public mutating func raw(_ s: String) { bytes.append(contentsOf: s.utf8) }

    @inline(__always) public mutating func byte(_ b: UInt8) { bytes.append(b) }

    public mutating func key(_ name: StaticString) {
        if let last = bytes.last, last != UInt8(ascii: "{"), last != UInt8(ascii: "[") { byte(UInt8(ascii: ",")) }
        byte(UInt8(ascii: "\""))
        raw(name)
        byte(UInt8(ascii: "\""))
        byte(UInt8(ascii: ":"))
    }

    public mutating func number(_ value: Double) {
        if value.isFinite {
            // Short enough to be a small (inline, unallocated) string.
            bytes.append(contentsOf: value.description.utf8)
        } else {
            raw("null")
        }
    }

    public mutating func number(_ value: UInt64) {
        if value < 10 {
            byte(UInt8(ascii: "0") + UInt8(value))
            return
        }
        var digits: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)  // 32 bytes: enough for 20 digits
        var count = 0
        var v = value
        withUnsafeMutableBytes(of: &digits) { buffer in
            while v > 0 {
                buffer[31 - count] = UInt8(ascii: "0") + UInt8(v % 10)
                v /= 10
                count += 1
            }
            bytes.append(contentsOf: buffer[(32 - count)...])
        }
    }

    public mutating func number(_ value: Int) {
        if value < 0 {
            byte(UInt8(ascii: "-"))
            number(value.magnitude.toUInt64)
        } else {
            number(UInt64(value))
        }
    }

    public mutating func bool(_ value: Bool) { value ? raw("true") : raw("false") }

    /// Only for strings that need no escaping (names, enum values).
    public mutating func plainString(_ value: String) {
        byte(UInt8(ascii: "\""))
        raw(value)
        byte(UInt8(ascii: "\""))
    }

    public mutating func field(_ name: StaticString, _ value: Double) { key(name); number(value) }
    public mutating func field(_ name: StaticString, _ value: UInt64) { key(name); number(value) }
    public mutating func field(_ name: StaticString, _ value: Int) { key(name); number(value) }
    public mutating func field(_ name: StaticString, _ value: Bool) { key(name); bool(value) }
    public mutating func field(_ name: StaticString, plain value: String) { key(name); plainString(value) }

    public mutating func separateElement() {
        if let last = bytes.last, last != UInt8(ascii: "[") { byte(UInt8(ascii: ",")) }
    }
}

extension UInt {
    fileprivate var toUInt64: UInt64 { UInt64(self) }
}
