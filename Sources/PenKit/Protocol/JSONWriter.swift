import CNumberText

/// The one writer of the wire protocol: every server message (and `penkit`'s
/// JSON output) is written by it, straight into one reusable byte buffer.
/// No Foundation, no `String` in between, and numbers are formatted on the stack,
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

    public mutating func key(_ name: StaticString) {
        if let last = bytes.last, last != UInt8(ascii: "{"), last != UInt8(ascii: "[") { byte(UInt8(ascii: ",")) }
        byte(UInt8(ascii: "\""))
        raw(name)
        byte(UInt8(ascii: "\""))
        byte(UInt8(ascii: ":"))
    }

    /// Before each element of an array: a comma unless it is the first.
    public mutating func separateElement() {
        if let last = bytes.last, last != UInt8(ascii: "[") { byte(UInt8(ascii: ",")) }
    }

    // MARK: values

    public mutating func number(_ value: Double) {
        guard value.isFinite else { raw("null"); return }
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: 40) { buffer in
            let length = penkit_double_text(buffer.baseAddress!, buffer.count, value)
            UnsafeRawBufferPointer(start: buffer.baseAddress, count: length).withMemoryRebound(to: UInt8.self) {
                bytes.append(contentsOf: $0)
            }
        }
    }

    public mutating func number(_ value: UInt64) {
        if value < 10 {
            byte(UInt8(ascii: "0") + UInt8(value))
            return
        }
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes: enough for 20 digits
        var count = 0
        var v = value
        withUnsafeMutableBytes(of: &digits) { buffer in
            while v > 0 {
                buffer[23 - count] = UInt8(ascii: "0") + UInt8(v % 10)
                v /= 10
                count += 1
            }
            bytes.append(contentsOf: buffer[(24 - count)...])
        }
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

    public mutating func field(_ name: StaticString, _ value: Double) { key(name); number(value) }
    public mutating func field(_ name: StaticString, _ value: UInt64) { key(name); number(value) }
    public mutating func field(_ name: StaticString, _ value: some FixedWidthInteger) { key(name); number(value) }
    public mutating func field(_ name: StaticString, _ value: Bool) { key(name); bool(value) }
    public mutating func field(_ name: StaticString, string value: String) { key(name); string(value) }
    public mutating func field(_ name: StaticString, plain value: String) { key(name); plainString(value) }
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
