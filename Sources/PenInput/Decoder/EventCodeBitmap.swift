/// Which (type, code) pairs a device has, as one bit each: the decoder asks for every event it
/// receives, and a lookup in the descriptions' `[type: Set<code>]` hashes twice per event.
struct EventCodeBitmap: Sendable {
    /// Event types up to EV_MAX (0x1f) and codes up to KEY_MAX (0x2ff), the largest code space.
    private static let typeCount = 0x20
    private static let codeCount = 0x300
    private static let wordsPerType = codeCount / 64
    private var words: [UInt64]

    init(_ codes: [UInt16: Set<UInt16>]) {
        words = Array(repeating: 0, count: Self.typeCount * Self.wordsPerType)
        for (type, set) in codes where Int(type) < Self.typeCount {
            for code in set where Int(code) < Self.codeCount {
                words[Self.word(type, code)] |= 1 << UInt64(code % 64)
            }
        }
    }

    /// Codes outside the bitmap's range are never declared by a device (the kernel's limits).
    func contains(type: UInt16, code: UInt16) -> Bool {
        guard Int(type) < Self.typeCount, Int(code) < Self.codeCount else { return false }
        return words[Self.word(type, code)] & (1 << UInt64(code % 64)) != 0
    }

    private static func word(_ type: UInt16, _ code: UInt16) -> Int {
        Int(type) * wordsPerType + Int(code) / 64
    }
}
