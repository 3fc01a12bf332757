import CNumberText

/// The one writer of the wire protocol: every server message (and `penkit`'s
/// JSON output) is written by it, straight into one reusable byte buffer.
/// No Foundation, no `String` in between, and numbers are formatted in place,
/// so writing a message allocates nothing once the buffer has grown.
/// Doubles print in Swift's shortest round-trip form; a non-finite double (which
/// the engine never produces) prints as null rather than invalid JSON.
public struct JSONWriter: Sendable {
    public private(set) var bytes: [UInt8]

    public init(capacity: Int = 512) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    public var text: String { String(decoding: bytes, as: UTF8.self) }
    public var count: Int { bytes.count }

    /// Empties the buffer, keeping its storage for the next messages.
    public mutating func removeAll() { bytes.removeAll(keepingCapacity: true) }

    /// Appends one message and its newline: a line as it goes on the wire.
    public mutating func line(_ message: some WireMessage) {
        message.write(to: &self)
        byte(UInt8(ascii: "\n"))
    }

    // MARK: structure

    @inline(__always) public mutating func raw(_ s: StaticString) {
        s.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    @inline(__always) public mutating func byte(_ b: UInt8) { bytes.append(b) }

    /// Bytes already encoded (a line made elsewhere), as they are.
    public mutating func append(_ encoded: UnsafeRawBufferPointer) { bytes.append(contentsOf: encoded) }

    public mutating func key(_ name: StaticString) {
        let comma = needsComma
        appendFormatted(capacity: name.utf8CodeUnitCount + 4) { Self.put(key: name, comma: comma, at: $0) }
    }

    /// Before each element of an array: a comma unless it is the first.
    public mutating func separateElement() {
        if let last = bytes.last, last != UInt8(ascii: "[") { byte(UInt8(ascii: ",")) }
    }

    // MARK: values

    public mutating func number(_ value: Double) {
        appendFormatted(capacity: Self.doubleCapacity) { Self.put(value, at: $0) }
    }

    public mutating func number(_ value: UInt64) {
        appendFormatted(capacity: Self.integerCapacity) { Self.put(value, at: $0) }
    }

    public mutating func number(_ value: some FixedWidthInteger) {
        if value < 0 { byte(UInt8(ascii: "-")) }
        number(UInt64(value.magnitude))
    }

    public mutating func bool(_ value: Bool) { value ? raw("true") : raw("false") }

    /// A JSON string literal, escaped: quotes, backslashes and control characters.
    public mutating func string(_ value: String) {
        byte(UInt8(ascii: "\""))
        for b in value.utf8 {
            switch b {
            case UInt8(ascii: "\""): raw("\\\"")
            case UInt8(ascii: "\\"): raw("\\\\")
            case UInt8(ascii: "\n"): raw("\\n")
            case UInt8(ascii: "\r"): raw("\\r")
            case UInt8(ascii: "\t"): raw("\\t")
            case 0..<0x20:
                let hex: StaticString = "0123456789abcdef"
                raw("\\u00")
                byte(hex.utf8Start[Int(b >> 4)])
                byte(hex.utf8Start[Int(b & 15)])
            default: byte(b)
            }
        }
        byte(UInt8(ascii: "\""))
    }

    /// A string known to need no escaping (enum values, names from this code).
    public mutating func plainString(_ value: String) {
        byte(UInt8(ascii: "\""))
        bytes.append(contentsOf: value.utf8)
        byte(UInt8(ascii: "\""))
    }

    public mutating func field(_ name: StaticString, _ value: Double) {
        appendField(name, valueCapacity: Self.doubleCapacity) { Self.put(value, at: $0) }
    }

    public mutating func field(_ name: StaticString, _ value: UInt64) {
        appendField(name, valueCapacity: Self.integerCapacity) { Self.put(value, at: $0) }
    }

    public mutating func field(_ name: StaticString, _ value: some FixedWidthInteger) { key(name); number(value) }
    public mutating func field(_ name: StaticString, _ value: Bool) { key(name); bool(value) }
    public mutating func field(_ name: StaticString, string value: String) { key(name); string(value) }
    public mutating func field(_ name: StaticString, plain value: String) { key(name); plainString(value) }
}

extension JSONWriter {
    /// A comma belongs before the next key or element unless the container was just opened.
    private var needsComma: Bool {
        guard let last = bytes.last else { return false }
        return last != UInt8(ascii: "{") && last != UInt8(ascii: "[")
    }

    /// Room for any finite double's text (the formatter fills the whole buffer first).
    private static let doubleCapacity = 40
    /// Room for any UInt64's digits.
    private static let integerCapacity = 20

    /// Appends what `body` writes straight into the array's spare room, at most `capacity` bytes
    /// (it returns how many): one uniqueness and capacity check, no copy.
    @inline(__always)
    private mutating func appendFormatted(capacity: Int, _ body: (UnsafeMutablePointer<UInt8>) -> Int) {
        bytes.append(addingCapacity: capacity) { span in
            span.withUnsafeMutableBufferPointer { buffer, initialized in initialized = body(buffer.baseAddress!) }
        }
    }

    /// A field is one append: its separator, key and value are written in place at once, since
    /// every append to the array checks that it is unique and has room.
    @inline(__always)
    private mutating func appendField(_ name: StaticString, valueCapacity: Int,
                                      _ putValue: (UnsafeMutablePointer<UInt8>) -> Int) {
        let comma = needsComma
        appendFormatted(capacity: name.utf8CodeUnitCount + 4 + valueCapacity) {
            let keyLength = Self.put(key: name, comma: comma, at: $0)
            return keyLength + putValue($0 + keyLength)
        }
    }

    /// `,"name":` (the comma only when asked).
    @inline(__always)
    private static func put(key name: StaticString, comma: Bool, at p: UnsafeMutablePointer<UInt8>) -> Int {
        var n = 0
        if comma { p[0] = UInt8(ascii: ","); n = 1 }
        p[n] = UInt8(ascii: "\"")
        n += 1
        // Byte by byte: keys are a few bytes, shorter than a call to memmove.
        name.withUTF8Buffer { for b in $0 { p[n] = b; n += 1 } }
        p[n] = UInt8(ascii: "\"")
        p[n + 1] = UInt8(ascii: ":")
        return n + 2
    }

    /// A double as Swift's `description` spells it; non-finite as null. Needs `doubleCapacity` bytes.
    @inline(__always)
    private static func put(_ value: Double, at p: UnsafeMutablePointer<UInt8>) -> Int {
        guard value.isFinite else {
            for (i, b) in "null".utf8.enumerated() { p[i] = b }
            return 4
        }
        if let length = putShortDecimal(value, at: p) { return length }
        return p.withMemoryRebound(to: CChar.self, capacity: doubleCapacity) {
            penkit_double_text($0, doubleCapacity, value)
        }
    }

    /// The common case without the general shortest-digits search: a value below 10⁹ with at most
    /// four decimals (a tablet's millimetres, whole numbers, zero). If `scaled / 10⁴` rounds to
    /// `value`, the decimal `scaled / 10⁴` reads back as `value`; with at most 13 significant
    /// digits it is the only decimal of 15 digits or fewer that does (DBL_DIG), so it is the
    /// shortest, the digits `description` prints, and in the plain notation it uses from 10⁻⁴ on.
    @inline(__always)
    private static func putShortDecimal(_ value: Double, at p: UnsafeMutablePointer<UInt8>) -> Int? {
        guard value.magnitude < 1e9 else { return nil }
        let scaled = (value * 10_000).rounded()
        guard scaled / 10_000 == value else { return nil }
        var n = 0
        if value.sign == .minus { p[0] = UInt8(ascii: "-"); n = 1 }
        let magnitude = UInt64(scaled.magnitude)
        n += put(magnitude / 10_000, at: p + n)
        p[n] = UInt8(ascii: ".")
        n += 1
        var fraction = magnitude % 10_000
        var digits = 4
        while digits > 1, fraction % 10 == 0 { fraction /= 10; digits -= 1 }
        for i in stride(from: digits - 1, through: 0, by: -1) {
            p[n + i] = UInt8(ascii: "0") + UInt8(fraction % 10)
            fraction /= 10
        }
        return n + digits
    }

    /// A UInt64's decimal digits. Needs `integerCapacity` bytes.
    @inline(__always)
    private static func put(_ value: UInt64, at p: UnsafeMutablePointer<UInt8>) -> Int {
        var digits = 1
        var rest = value / 10
        while rest > 0 { digits += 1; rest /= 10 }
        var v = value
        for i in stride(from: digits - 1, through: 0, by: -1) {
            p[i] = UInt8(ascii: "0") + UInt8(v % 10)
            v /= 10
        }
        return digits
    }
}

/// A message with one wire form, written in exactly one place: its `write(to:)`.
public protocol WireMessage {
    func write(to w: inout JSONWriter)
}

extension WireMessage {
    /// The JSON line without its newline, as text (tests, `penkit` output).
    public func jsonLine() -> String {
        var w = JSONWriter()
        write(to: &w)
        return w.text
    }

    /// The JSON line's UTF-8 bytes, without the newline.
    public func jsonBytes() -> [UInt8] {
        var w = JSONWriter()
        write(to: &w)
        return w.bytes
    }
}
