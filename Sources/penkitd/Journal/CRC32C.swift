import CChecksum

/// CRC-32C (Castagnoli), the checksum of every journal record: a torn or
/// corrupted record must never be served as a stroke. Computed in C with the
/// CPU's crc32 instruction where it has one: every finalized stroke's line is
/// checksummed on the input thread.
enum CRC32C {
    static func checksum(_ bytes: UnsafeRawBufferPointer, seed: UInt32 = 0) -> UInt32 {
        penkit_crc32c(seed, bytes.baseAddress, bytes.count)
    }

    static func checksum(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        bytes.withUnsafeBytes { checksum($0) }
    }
}
