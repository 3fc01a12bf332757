import Testing
@testable import penkit

@Test func adlerAndChunkChecksumsAreTheStandardOnes() {
    // RFC 1950's Adler-32 of "Wikipedia" is 0x11E60398 (the worked example on its Wikipedia page).
    #expect(Deflate.adler32(Array("Wikipedia".utf8)) == 0x11E6_0398)
    // Every PNG ends with the same IEND chunk: length 0, "IEND", CRC AE 42 60 82.
    let png = PNGFile.encode(rgba: [0, 0, 0, 0], width: 1, height: 1)
    #expect(Array(png.suffix(12)) == [0, 0, 0, 0, 0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82])
    #expect(Array(png.prefix(8)) == PNGFile.signature)
}

@Test func runsOfAByteBecomeShortMatches() {
    // A 1000×1000 transparent image filters to a million zero bytes: matches of 258 at
    // distance 1 take 13 bits each (one literal starts the run), so the stream is about 6 kB, not a megabyte.
    let zeros = [UInt8](repeating: 0, count: 1_000_000)
    let stream = Deflate.zlib(zeros)
    #expect(stream.count < 8_000, "\(stream.count) bytes")
    #expect(Array(stream.prefix(2)) == [0x78, 0x01] && (0x78 * 256 + 0x01) % 31 == 0)
}
