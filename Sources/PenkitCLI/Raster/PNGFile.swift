import PenKit

/// An 8-bit RGBA PNG (colour type 6, not interlaced): rows filtered by "Sub" (each
/// byte minus the same channel of the pixel to its left), compressed by `Deflate`.
enum PNGFile {
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    static func encode(rgba: [UInt8], width: Int, height: Int) -> [UInt8] {
        precondition(rgba.count == width * height * 4, "RGBA bytes for \(width)×\(height) pixels")
        var filtered: [UInt8] = []
        filtered.reserveCapacity(height * (width * 4 + 1))
        for y in 0..<height {
            filtered.append(1)  // Sub
            let row = y * width * 4
            for x in 0..<(width * 4) {
                let left: UInt8 = x >= 4 ? rgba[row + x - 4] : 0
                filtered.append(rgba[row + x] &- left)
            }
        }
        var header: [UInt8] = []
        appendBigEndian(UInt32(width), to: &header)
        appendBigEndian(UInt32(height), to: &header)
        header += [8, 6, 0, 0, 0]  // depth 8, RGBA, deflate, adaptive filtering, no interlace
        var file = signature
        chunk("IHDR", header, into: &file)
        chunk("IDAT", Deflate.zlib(filtered), into: &file)
        chunk("IEND", [], into: &file)
        return file
    }

    private static func chunk(_ type: String, _ body: [UInt8], into file: inout [UInt8]) {
        appendBigEndian(UInt32(body.count), to: &file)
        let typed = Array(type.utf8) + body
        file += typed
        appendBigEndian(CRC32.checksum(typed[...]), to: &file)
    }

    private static func appendBigEndian(_ v: UInt32, to bytes: inout [UInt8]) {
        for shift in [24, 16, 8, 0] { bytes.append(UInt8(truncatingIfNeeded: v >> UInt32(shift))) }
    }
}
