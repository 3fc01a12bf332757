/// A zlib stream (RFC 1950) of one deflate block (RFC 1951) with the fixed Huffman
/// codes: every byte a literal except runs of a repeated byte, which become matches
/// at distance 1. PNG rows filtered by "Sub" turn a flat colour, and the transparent
/// background most of all, into runs of zeros, so this is small where it matters
/// without a general matcher (and needs no zlib).
enum Deflate {
    static func zlib(_ data: [UInt8]) -> [UInt8] {
        var w = BitWriter()
        w.bytes = [0x78, 0x01]  // deflate, 32K window; no dictionary; check bits make 0x7801 % 31 == 0
        w.bits(1, count: 1)  // final block
        w.bits(1, count: 2)  // fixed Huffman codes
        var i = 0
        while i < data.count {
            if i > 0 {
                // A run of the byte before: one match at distance 1 per 258 bytes of it.
                var run = 0
                while i + run < data.count, data[i + run] == data[i - 1], run < 258 { run += 1 }
                if run >= 3 {
                    w.match(length: run)
                    i += run
                    continue
                }
            }
            w.literal(Int(data[i]))
            i += 1
        }
        w.literal(256)  // end of block
        w.flush()
        let adler = adler32(data)
        for shift in [24, 16, 8, 0] { w.bytes.append(UInt8(truncatingIfNeeded: adler >> UInt32(shift))) }
        return w.bytes
    }

    static func adler32(_ data: [UInt8]) -> UInt32 {
        var a: UInt32 = 1, b: UInt32 = 0
        var i = 0
        while i < data.count {
            // 5552 bytes keep b below 2³² before the modulo (zlib's NMAX).
            let end = min(i + 5552, data.count)
            while i < end {
                a += UInt32(data[i])
                b += a
                i += 1
            }
            a %= 65521
            b %= 65521
        }
        return b << 16 | a
    }

    private struct BitWriter {
        var bytes: [UInt8] = []
        private var buffer: UInt32 = 0
        private var filled: UInt32 = 0

        /// `count` bits of `value`, least significant first (deflate's order for everything but Huffman codes).
        mutating func bits(_ value: Int, count: Int) {
            buffer |= UInt32(value) << filled
            filled += UInt32(count)
            while filled >= 8 {
                bytes.append(UInt8(truncatingIfNeeded: buffer))
                buffer >>= 8
                filled -= 8
            }
        }

        /// A Huffman code, most significant bit first.
        mutating func code(_ value: Int, length: Int) {
            var reversed = 0
            for k in 0..<length where value & (1 << k) != 0 { reversed |= 1 << (length - 1 - k) }
            bits(reversed, count: length)
        }

        /// The fixed literal/length code of symbol 0…287.
        mutating func literal(_ symbol: Int) {
            switch symbol {
            case 0...143: code(0x30 + symbol, length: 8)
            case 144...255: code(0x190 + symbol - 144, length: 9)
            case 256...279: code(symbol - 256, length: 7)
            default: code(0xC0 + symbol - 280, length: 8)
            }
        }

        private static let lengthBase = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59,
                                         67, 83, 99, 115, 131, 163, 195, 227, 258]
        private static let lengthExtra = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0]

        /// A copy of the previous `length` (3…258) bytes at distance 1.
        mutating func match(length: Int) {
            var k = Self.lengthBase.count - 1
            while Self.lengthBase[k] > length { k -= 1 }
            literal(257 + k)
            bits(length - Self.lengthBase[k], count: Self.lengthExtra[k])
            code(0, length: 5)  // distance code 0: distance 1, no extra bits
        }

        mutating func flush() {
            if filled > 0 { bytes.append(UInt8(truncatingIfNeeded: buffer)) }
            buffer = 0
            filled = 0
        }
    }
}
