/// The primitive encodings of the drawing format (docs/drawing-format.md).
struct DrawingByteWriter {
    var bytes: [UInt8] = []

    mutating func u8(_ v: UInt8) { bytes.append(v) }

    mutating func u16(_ v: UInt16) {
        bytes.append(UInt8(truncatingIfNeeded: v))
        bytes.append(UInt8(truncatingIfNeeded: v >> 8))
    }

    mutating func u32(_ v: UInt32) {
        for shift in stride(from: 0, to: 32, by: 8) { bytes.append(UInt8(truncatingIfNeeded: v >> UInt32(shift))) }
    }

    mutating func u64(_ v: UInt64) {
        for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: v >> UInt64(shift))) }
    }

    /// IEEE 754 binary64, little-endian.
    mutating func f64(_ v: Double) { u64(v.bitPattern) }

    /// Unsigned LEB128: 7 bits a byte, low bits first, high bit set on all but the last.
    mutating func varint(_ v: UInt64) {
        var v = v
        while v >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: v) | 0x80)
            v >>= 7
        }
        bytes.append(UInt8(v))
    }

    /// A signed value as a varint, zigzag-mapped (0, −1, 1, −2 … → 0, 1, 2, 3 …).
    mutating func zigzag(_ v: Int64) { varint(UInt64(bitPattern: (v << 1) ^ (v >> 63))) }

    mutating func string(_ s: String) {
        varint(UInt64(s.utf8.count))
        bytes.append(contentsOf: s.utf8)
    }

    /// A double as the XOR of its bits with `previous`'s: one header byte
    /// (leading zero bytes << 4 | trailing zero bytes, or 0x88 for equal bits)
    /// and the bytes between, most significant first. Neighbouring values of a
    /// stroke share sign, exponent and high mantissa bits, so this is exact and short.
    mutating func packed(_ v: Double, previous: Double) {
        let x = v.bitPattern ^ previous.bitPattern
        guard x != 0 else {
            bytes.append(0x88)
            return
        }
        let leading = x.leadingZeroBitCount / 8, trailing = x.trailingZeroBitCount / 8
        bytes.append(UInt8(leading << 4 | trailing))
        var shift = 56 - 8 * leading
        while shift >= 8 * trailing {
            bytes.append(UInt8(truncatingIfNeeded: x >> UInt64(shift)))
            shift -= 8
        }
    }
}
