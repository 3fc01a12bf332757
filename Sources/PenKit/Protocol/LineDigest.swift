/// What penkitd's flight recorder keeps of one engine line (frame, began, update, ended, stroke)
/// instead of its bytes, and what `penkit replay REPORT --check` computes of each line it
/// regenerates, by this same code: a replay of the recorded events makes the lines again, so
/// their digests are enough to say whether it made them byte for byte.
///
/// - `full`: the line without a frame's `delivered` (the virtual tablet's positions, which a
///   replay has no virtual tablet for);
/// - `core`: for a frame, also without its prediction (`predicted`, `expectedError`,
///   `liftProbability`), which the engine calibrates on the tool's earlier strokes: a window
///   that starts after them can reproduce everything but that; for other lines, `full`;
/// - `number`: the engine-wide counter the line carries, which counts from where penkitd was
///   when the window began: a `began`'s stroke id, a `stroke`'s seq, a frame's or an update's
///   `updateIndex` (0 when it has none). The check rebases the replay's by them.
/// - `inStroke`: a frame of a stroke (it names one), which a replay starting mid-stroke cannot make.
///
/// Computing it reads each byte once, in 8-byte words, and allocates nothing (penkitd's input
/// thread digests every line it publishes). 64 bits: two different lines share a digest with a
/// chance of 2⁻⁶⁴, far below anything else that could make a check lie.
public struct LineDigest: Sendable, Equatable {
    /// Named as the line's `type` (a byte in memory, as any enum of five cases).
    public enum Kind: String, Sendable, CaseIterable {
        case frame, began, update, ended, stroke

        public var name: String { rawValue }

        public init?(name: String) { self.init(rawValue: name) }
    }

    public var kind: Kind
    public var inStroke: Bool
    public var full: UInt64
    public var core: UInt64
    public var number: UInt64

    public init(kind: Kind, inStroke: Bool, full: UInt64, core: UInt64, number: UInt64) {
        self.kind = kind
        self.inStroke = inStroke
        self.full = full
        self.core = core
        self.number = number
    }

    /// nil for a line that is no engine message (device, status, pad, …): those are not kept.
    public static func of(_ line: String) -> LineDigest? {
        var copy = line
        return copy.withUTF8 { of(UnsafeRawBufferPointer($0)) }
    }

    /// The digest of one line, its newline excluded (a trailing one is ignored).
    public static func of(_ line: UnsafeRawBufferPointer) -> LineDigest? {
        var end = line.count
        if end > 0, line[end - 1] == UInt8(ascii: "\n") { end -= 1 }
        let bytes = UnsafeRawBufferPointer(rebasing: line[0..<end])
        guard let kind = kind(of: bytes) else { return nil }
        guard kind == .frame else {
            var hasher = Hasher()
            hasher.feed(bytes)
            let digest = hasher.finish()
            return LineDigest(kind: kind, inStroke: false, full: digest, core: digest, number: leadingNumber(bytes, kind: kind))
        }
        // {"type":"frame","tool":{…}[,"stroke":N],"sample":{…},"predicted":[…][,"expectedError":e]
        // [,"liftProbability":p][,"delivered":{…}],"device":N}: the tool, the sample and
        // `delivered` are flat objects (EngineMessage+JSON), so each place is found from the
        // brace before or after it, with memchr, instead of by reading the line byte by byte.
        guard let places = FramePlaces(bytes) else {
            var hasher = Hasher()
            hasher.feed(bytes)
            let digest = hasher.finish()
            return LineDigest(kind: kind, inStroke: false, full: digest, core: digest, number: 0)
        }
        var prefix = Hasher()
        prefix.feed(UnsafeRawBufferPointer(rebasing: bytes[0..<places.predicted]))
        var full = prefix
        full.feed(UnsafeRawBufferPointer(rebasing: bytes[places.predicted..<places.delivered]))
        full.feed(UnsafeRawBufferPointer(rebasing: bytes[places.device..<end]))
        var core = prefix
        core.feed(UnsafeRawBufferPointer(rebasing: bytes[places.device..<end]))
        return LineDigest(kind: kind, inStroke: places.inStroke, full: full.finish(), core: core.finish(),
                          number: places.updateIndex)
    }

    /// The line's kind from its first bytes (`{"type":"…"`).
    static func kind(of bytes: UnsafeRawBufferPointer) -> Kind? {
        let head = #"{"type":""#.utf8
        guard bytes.count > head.count + 4, bytes.starts(with: head) else { return nil }
        switch (bytes[head.count], bytes[head.count + 1]) {
        case (UInt8(ascii: "f"), UInt8(ascii: "r")) where bytes.count > head.count + 6 && bytes[head.count + 5] == UInt8(ascii: "\""): return .frame
        case (UInt8(ascii: "b"), UInt8(ascii: "e")) where bytes[head.count + 5] == UInt8(ascii: "\""): return .began
        case (UInt8(ascii: "u"), UInt8(ascii: "p")) where bytes.count > head.count + 6 && bytes[head.count + 6] == UInt8(ascii: "\""): return .update
        case (UInt8(ascii: "e"), UInt8(ascii: "n")) where bytes[head.count + 5] == UInt8(ascii: "\""): return .ended
        case (UInt8(ascii: "s"), UInt8(ascii: "t")) where bytes.count > head.count + 6 && bytes[head.count + 6] == UInt8(ascii: "\"")
            && bytes[head.count + 2] == UInt8(ascii: "r"): return .stroke
        default: return nil
        }
    }

    /// A `began`'s stroke id, a `stroke`'s seq, an update's `updateIndex`: each at a place the
    /// writer fixes (EngineMessage+JSON), so found without a search past a stroke id.
    public static func leadingNumber(_ bytes: UnsafeRawBufferPointer, kind: Kind) -> UInt64 {
        let key: String
        switch kind {
        case .began: key = #""stroke":"#
        case .stroke: key = #""seq":"#
        case .update: key = #""updateIndex":"#
        case .frame, .ended: return 0
        }
        let limit = min(bytes.count, 64)
        guard let at = find(key, in: bytes, from: 0, to: limit, backwards: false) else { return 0 }
        return parseNumber(bytes, at: at + key.utf8.count)
    }

    static func parseNumber(_ bytes: UnsafeRawBufferPointer, at start: Int) -> UInt64 {
        var n: UInt64 = 0
        var i = start
        while i < bytes.count, bytes[i] >= UInt8(ascii: "0"), bytes[i] <= UInt8(ascii: "9"), i - start < 19 {
            n = n &* 10 &+ UInt64(bytes[i] - UInt8(ascii: "0"))
            i += 1
        }
        return n
    }

    /// Where `needle` starts in bytes[from..<to], the first or the last occurrence.
    static func find(_ needle: String, in bytes: UnsafeRawBufferPointer, from: Int, to: Int, backwards: Bool) -> Int? {
        var needle = needle
        return needle.withUTF8 { n -> Int? in
            let count = n.count
            guard count > 0, to - from >= count else { return nil }
            let first = n[0]
            var i = backwards ? to - count : from
            while backwards ? i >= from : i <= to - count {
                if bytes[i] == first {
                    var j = 1
                    while j < count, bytes[i + j] == n[j] { j += 1 }
                    if j == count { return i }
                }
                i += backwards ? -1 : 1
            }
            return nil
        }
    }

    /// A 64-bit hash of a byte stream fed in pieces, the same however it is cut: a word
    /// multiply-xorshift over 8-byte words (the stream's, not the pieces'), then the length.
    public struct Hasher: Sendable {
        private var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        private var pending: UInt64 = 0
        private var pendingCount = 0
        private var length = 0

        public init() {}

        public mutating func feed(_ piece: UnsafeRawBufferPointer) {
            var i = 0
            let n = piece.count
            length += n
            while pendingCount != 0, i < n {
                take(byte: piece[i])
                i += 1
            }
            while i + 8 <= n {
                mix(piece.loadUnaligned(fromByteOffset: i, as: UInt64.self))
                i += 8
            }
            while i < n {
                take(byte: piece[i])
                i += 1
            }
        }

        @inline(__always) private mutating func take(byte: UInt8) {
            pending |= UInt64(byte) << (8 * UInt64(pendingCount))
            pendingCount += 1
            if pendingCount == 8 {
                mix(pending)
                pending = 0
                pendingCount = 0
            }
        }

        @inline(__always) private mutating func mix(_ word: UInt64) {
            state = (state ^ word) &* 0xFF51_AFD7_ED55_8CCD
            state ^= state >> 32
        }

        public func finish() -> UInt64 {
            var copy = self
            if copy.pendingCount > 0 { copy.mix(copy.pending ^ 0x80) }
            copy.mix(UInt64(length))
            var h = copy.state
            h ^= h >> 33
            h = h &* 0xC4CE_B9FE_1A85_EC53
            h ^= h >> 33
            return h
        }
    }

    /// As the report writes a digest: 16 hexadecimal digits.
    public static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
