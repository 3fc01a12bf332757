import CChecksum
import Testing
@testable import penkitd

/// The journal's checksum must not change with its implementation: records written by one
/// penkitd are read by the next. Checked against CRC-32C's published check value and against a
/// bit-by-bit reference written here, on both of the C code's paths.
@Suite struct CRC32CTests {
    /// Bit by bit, straight from the polynomial (reflected 0x82F63B78).
    private static func reference(_ bytes: [UInt8], seed: UInt32 = 0) -> UInt32 {
        var crc = ~seed
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0x82F6_3B78 : crc >> 1 }
        }
        return ~crc
    }

    @Test func theCheckValueOf123456789() {
        let bytes = Array("123456789".utf8)
        #expect(Self.reference(bytes) == 0xE306_9283)
        bytes.withUnsafeBytes { raw in
            #expect(CRC32C.checksum(raw) == 0xE306_9283)
            #expect(penkit_crc32c_portable(0, raw.baseAddress, raw.count) == 0xE306_9283)
        }
    }

    @Test func everyLengthAndAlignmentMatchesTheReference() {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        let data = (0..<300).map { _ -> UInt8 in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: state >> 33)
        }
        for start in 0..<9 {
            for length in 0...(data.count - start) where length < 40 || length % 37 == 0 {
                let slice = Array(data[start..<(start + length)])
                let expected = Self.reference(slice)
                data[start..<(start + length)].withUnsafeBytes { raw in
                    #expect(CRC32C.checksum(raw) == expected, "start \(start), length \(length)")
                    #expect(penkit_crc32c_portable(0, raw.baseAddress, raw.count) == expected)
                }
            }
        }
    }

    @Test func aSeedContinuesAChecksum() {
        let first = Array("a torn record ".utf8), second = Array("is never a stroke".utf8)
        let whole = Self.reference(first + second)
        let seed = first.withUnsafeBytes { CRC32C.checksum($0) }
        #expect(second.withUnsafeBytes { CRC32C.checksum($0, seed: seed) } == whole)
    }
}
