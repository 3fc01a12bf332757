/// What a pressure bridge needs from a frame line, read without decoding the whole frame.
///
/// A bridge must see each contact frame well within the source's timeout (its reading is
/// stamped with the frame's sample time and has to arrive before the sample stops waiting).
/// Decoding every frame with `PenMessage` costs a full JSON parse of the frame and its
/// predicted samples; in an emulated guest that is slower than the pen's report rate, so the
/// bridge fell further behind with every frame and each reading came after its timeout.
/// This scans the line penkitd writes (EngineMessage+JSON.swift: `type` first, then `tool`,
/// `stroke`, `sample` with `t` first and a flat body) and gives up on anything else, so that
/// the caller can fall back to the full decode.
package enum FrameTimeScan: Equatable, Sendable {
    /// A frame of a stroke whose sample expects a force update: the sample's time (µs).
    case contactExpectingForce(time: UInt64)
    /// A frame that is not that (hovering, or nothing pending on force).
    case otherFrame
    /// Not a frame, or not laid out as penkitd writes frames: decode it fully.
    case unrecognised

    private static let framePrefix = Array(#"{"type":"frame","#.utf8)
    private static let strokeKey = Array(#""stroke":"#.utf8)
    private static let sampleStart = Array(#""sample":{"t":"#.utf8)
    private static let expectingKey = Array(#""expecting":["#.utf8)
    private static let force = Array(#""force""#.utf8)

    package init(line: String) {
        self = line.utf8.withContiguousStorageIfAvailable { Self.scan($0) } ?? Self.scan(Array(line.utf8))
    }

    private static func scan<Bytes: RandomAccessCollection>(_ bytes: Bytes) -> FrameTimeScan
    where Bytes.Element == UInt8, Bytes.Index == Int {
        guard bytes.starts(with: framePrefix), let sample = find(sampleStart, in: bytes, from: bytes.startIndex) else {
            return .unrecognised
        }
        // The top-level keys before the sample: `tool` (a flat object) and, in a stroke, `stroke`.
        let inStroke = find(strokeKey, in: bytes[..<sample], from: bytes.startIndex) != nil
        var i = sample + sampleStart.count
        var time: UInt64 = 0
        var digits = 0
        while i < bytes.endIndex, let digit = asciiDigit(bytes[i]) {
            let (shifted, overflow1) = time.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = shifted.addingReportingOverflow(digit)
            guard !overflow1, !overflow2 else { return .unrecognised }
            time = sum
            digits += 1
            i += 1
        }
        guard digits > 0, i < bytes.endIndex, bytes[i] == UInt8(ascii: ",") else { return .unrecognised }
        // The sample's body has no nested object: its end is the first `}`.
        guard let end = bytes[i...].firstIndex(of: UInt8(ascii: "}")),
              let expecting = find(expectingKey, in: bytes[..<end], from: i) else { return .unrecognised }
        let listStart = expecting + expectingKey.count
        guard let listEnd = bytes[listStart..<end].firstIndex(of: UInt8(ascii: "]")) else { return .unrecognised }
        let expectsForce = find(force, in: bytes[..<listEnd], from: listStart) != nil
        return inStroke && expectsForce ? .contactExpectingForce(time: time) : .otherFrame
    }

    private static func asciiDigit(_ byte: UInt8) -> UInt64? {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") ? UInt64(byte - UInt8(ascii: "0")) : nil
    }

    /// The index where `needle` first occurs in `bytes` at or after `start`.
    private static func find<Bytes: RandomAccessCollection>(_ needle: [UInt8], in bytes: Bytes, from start: Int) -> Int?
    where Bytes.Element == UInt8, Bytes.Index == Int {
        guard let first = needle.first, bytes.endIndex - start >= needle.count else { return nil }
        var i = start
        let last = bytes.endIndex - needle.count
        while i <= last {
            if bytes[i] == first, bytes[i..<(i + needle.count)].elementsEqual(needle) { return i }
            i += 1
        }
        return nil
    }
}
