/// Where a client picks up after penkitd restarts or cuts it off: the `since` that brings every
/// stroke the app has not taken yet, and none it has.
///
/// A slow reader cut off at shutdown may never read the `shutdown` or `overflow` line that says
/// the last seq it was sent in full; the connection can even end part way through a long stroke's
/// line. What the app itself took is the one thing that is always known, so that is what counts.
/// It is read off the lines as penkitd writes them (`type` first, then a stroke's `seq`; `hello`'s
/// `lastSeq`), without decoding them again.
package struct ResumePoint: Sendable, Equatable {
    /// The last stroke's seq the app took.
    private var lastTaken: UInt64?
    /// Where the session started: the `since` it subscribed with, or the newest stroke when it
    /// connected (`hello`'s `lastSeq`): strokes up to it were never this session's to miss.
    private var start: UInt64?
    private var subscribedSince = false

    package init() {}

    /// The `since` to subscribe with on a new connection; nil before the session said where it started.
    package var since: UInt64? { lastTaken ?? start }

    package mutating func subscribed(since: UInt64?) {
        guard let since, lastTaken == nil else { return }
        start = since
        subscribedSince = true
    }

    /// The app took `line`.
    package mutating func took(_ line: String) {
        var bytes = line.utf8[...]
        if bytes.starts(with: Self.strokePrefix) {
            bytes = bytes.dropFirst(Self.strokePrefix.count)
            if let seq = Self.number(at: bytes) { lastTaken = seq }
        } else if bytes.starts(with: Self.helloPrefix), !subscribedSince, lastTaken == nil,
                  let key = Self.range(of: Self.lastSeqKey, in: bytes) {
            start = Self.number(at: bytes[key.upperBound...])
        }
    }

    private static let strokePrefix = Array(#"{"type":"stroke","seq":"#.utf8)
    private static let helloPrefix = Array(#"{"type":"hello","#.utf8)
    private static let lastSeqKey = Array(#""lastSeq":"#.utf8)

    /// The decimal number the bytes start with; nil when there is none or it overflows.
    private static func number(at bytes: Substring.UTF8View.SubSequence) -> UInt64? {
        var value: UInt64 = 0
        var digits = 0
        for byte in bytes {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { break }
            let (shifted, overflowed) = value.multipliedReportingOverflow(by: 10)
            let (sum, carried) = shifted.addingReportingOverflow(UInt64(byte - UInt8(ascii: "0")))
            if overflowed || carried { return nil }
            value = sum
            digits += 1
        }
        return digits > 0 ? value : nil
    }

    private static func range(of key: [UInt8], in bytes: Substring.UTF8View.SubSequence) -> Range<String.Index>? {
        var index = bytes.startIndex
        while index < bytes.endIndex {
            if bytes[index...].starts(with: key) { return index..<bytes.index(index, offsetBy: key.count) }
            index = bytes.index(after: index)
        }
        return nil
    }
}
