/// A minimal JSON writer for the hot path: appends to one String, no Foundation.
/// Doubles print in Swift's shortest round-trip form; a non-finite double (which
/// the engine never produces) prints as null rather than invalid JSON.
public struct JSONWriter {
    public private(set) var text: String

    public init(capacity: Int = 256) {
        text = ""
        text.reserveCapacity(capacity)
    }

    public mutating func raw(_ s: String) { text += s }

    public mutating func key(_ name: String) {
        if let last = text.utf8.last, last != UInt8(ascii: "{"), last != UInt8(ascii: "[") { text += "," }
        text += "\""
        text += name
        text += "\":"
    }

    public mutating func number(_ value: Double) {
        text += value.isFinite ? value.description : "null"
    }

    public mutating func number(_ value: UInt64) { text += value.description }
    public mutating func number(_ value: Int) { text += value.description }
    public mutating func bool(_ value: Bool) { text += value ? "true" : "false" }

    /// Only for strings that need no escaping (names, enum values).
    public mutating func plainString(_ value: String) {
        text += "\""
        text += value
        text += "\""
    }

    public mutating func field(_ name: String, _ value: Double) { key(name); number(value) }
    public mutating func field(_ name: String, _ value: UInt64) { key(name); number(value) }
    public mutating func field(_ name: String, _ value: Int) { key(name); number(value) }
    public mutating func field(_ name: String, _ value: Bool) { key(name); bool(value) }
    public mutating func field(_ name: String, plain value: String) { key(name); plainString(value) }

    public mutating func separateElement() {
        if let last = text.utf8.last, last != UInt8(ascii: "[") { text += "," }
    }
}
