/// A finalized stroke too long for one bounded line, encoded as `strokePart` lines and a closing
/// `stroke` line (docs/protocol.md, "Long strokes"), each part from its own slice of the points:
/// the stroke's whole line is never built to make them.
///
/// The same object also writes the whole line, byte for byte as `EngineMessage.stroke`'s, for
/// clients that did not ask for parts and for the journal: its pieces are the skeleton (the whole
/// line with empty `points` and `controlPoints`) and the parts' elements, joined by commas
/// (`withWholeLine`), so no copy of the whole line is needed to send or journal it.
///
/// Every line lives in a buffer of its own, allocated once and never moved, so that a `writev`
/// or a slow client can hold its address while others read the same stroke. Immutable once made.
public final class PartedStroke: @unchecked Sendable {
    public let seq: UInt64
    public let strokeID: UInt64
    /// The `strokePart` lines in order (points first, then control points), newline included.
    private let partLines: [UnsafeMutableRawBufferPointer]
    /// Where each part's array elements lie in its line.
    private let elements: [Range<Int>]
    /// How many of the parts carry points; the rest carry control points.
    private let pointParts: Int
    /// The closing `stroke` line for clients that take parts: the whole line's fields, `"parts":N`,
    /// and empty arrays.
    private let headLine: UnsafeMutableRawBufferPointer
    /// The whole line without its arrays' elements, and where the points' and control points'
    /// elements go in it.
    private let skeleton: UnsafeMutableRawBufferPointer
    private let pointsAt: Int
    private let controlPointsAt: Int
    /// Bytes of the whole line (newline included), as a client that does not take parts gets it.
    public let wholeCount: Int
    /// Bytes of the parts and the closing line together, as a client that takes parts gets them.
    public let partedCount: Int

    /// Points (and control points) per part unless penkitd is told otherwise (`stroke-part-points`):
    /// a point's line is at most about 400 bytes, so a part's line stays under 256 KiB.
    public static let defaultPointsPerPart = 512
    /// The most points per part a server may choose (`stroke-part-points`): 256 KiB lines at most.
    public static let maxPointsPerPart = 512

    /// The stroke in parts of at most `pointsPerPart` points or control points, or nil when both
    /// arrays fit in one part: such a stroke goes out as one `stroke` line to every client.
    public static func encode(_ finalized: FinalizedStroke, pointsPerPart: Int) -> PartedStroke? {
        precondition(pointsPerPart > 0, "pointsPerPart must be positive")
        let stroke = finalized.stroke
        guard stroke.points.count > pointsPerPart || stroke.path.controlPoints.count > pointsPerPart else { return nil }
        return PartedStroke(finalized, pointsPerPart: pointsPerPart)
    }

    private init(_ finalized: FinalizedStroke, pointsPerPart: Int) {
        seq = finalized.seq
        strokeID = finalized.stroke.id
        let points = finalized.stroke.points
        let controlPoints = finalized.stroke.path.controlPoints
        let pointChunks = stride(from: 0, to: points.count, by: pointsPerPart).map { $0..<min($0 + pointsPerPart, points.count) }
        let controlChunks = stride(from: 0, to: controlPoints.count, by: pointsPerPart)
            .map { $0..<min($0 + pointsPerPart, controlPoints.count) }
        pointParts = pointChunks.count
        let partCount = pointChunks.count + controlChunks.count

        // One writer, reused for every line: it grows to one part's size, never to the stroke's.
        var w = JSONWriter(capacity: 64 << 10)
        var lines: [UnsafeMutableRawBufferPointer] = []
        var ranges: [Range<Int>] = []
        lines.reserveCapacity(partCount)
        ranges.reserveCapacity(partCount)
        func part(_ index: Int, key: StaticString, _ writeElements: (inout JSONWriter) -> Void) {
            w.removeAll()
            w.raw("{")
            w.field("type", plain: "strokePart")
            w.field("seq", finalized.seq)
            w.field("stroke", finalized.stroke.id)
            w.field("part", index)
            w.key(key); w.raw("[")
            let start = w.count
            writeElements(&w)
            ranges.append(start..<w.count)
            w.raw("]}")
            w.byte(UInt8(ascii: "\n"))
            lines.append(Self.copy(w.bytes))
        }
        for (index, chunk) in pointChunks.enumerated() {
            part(index, key: "points") { w in for p in points[chunk] { w.separateElement(); w.write(p) } }
        }
        for (index, chunk) in controlChunks.enumerated() {
            part(pointChunks.count + index, key: "controlPoints") { w in for p in controlPoints[chunk] { w.separateElement(); w.write(p) } }
        }
        partLines = lines
        elements = ranges

        w.removeAll()
        let offsets = Self.writeMessage(finalized, parts: nil, to: &w)
        skeleton = Self.copy(w.bytes)
        pointsAt = offsets.points
        controlPointsAt = offsets.controlPoints
        w.removeAll()
        _ = Self.writeMessage(finalized, parts: partCount, to: &w)
        headLine = Self.copy(w.bytes)

        let elementBytes = ranges.reduce(0) { $0 + $1.count }
        // A comma between consecutive parts' elements of the same array.
        let commas = max(pointChunks.count - 1, 0) + max(controlChunks.count - 1, 0)
        wholeCount = skeleton.count + elementBytes + commas
        partedCount = lines.reduce(headLine.count) { $0 + $1.count }
    }

    deinit {
        for line in partLines { line.deallocate() }
        headLine.deallocate()
        skeleton.deallocate()
    }

    /// `EngineMessage.stroke`'s line with empty arrays (and `"parts":N` after `seq` when given);
    /// returns where the arrays' elements go.
    private static func writeMessage(_ m: FinalizedStroke, parts: Int?, to w: inout JSONWriter) -> (points: Int, controlPoints: Int) {
        w.raw("{")
        w.field("type", plain: "stroke")
        w.field("seq", m.seq)
        if let parts { w.field("parts", parts) }
        w.key("stroke")
        let offsets = w.write(m.stroke, withElements: false)
        w.field("device", m.device)
        w.raw("}")
        w.byte(UInt8(ascii: "\n"))
        return offsets
    }

    private static func copy(_ bytes: [UInt8]) -> UnsafeMutableRawBufferPointer {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: bytes.count, alignment: 1)
        bytes.withUnsafeBytes { buffer.copyMemory(from: $0) }
        return buffer
    }

    public var partCount: Int { partLines.count }

    /// Part `index`'s line, newline included (valid while this object lives).
    public func part(_ index: Int) -> UnsafeRawBufferPointer { UnsafeRawBufferPointer(partLines[index]) }

    /// The closing `stroke` line a client that takes parts gets after them.
    public var head: UnsafeRawBufferPointer { UnsafeRawBufferPointer(headLine) }

    /// The lines a client that takes parts gets, in order: every part, then the closing line.
    public func partedLine(_ index: Int) -> UnsafeRawBufferPointer { index < partCount ? part(index) : head }
    public var partedLineCount: Int { partCount + 1 }

    /// The whole line, as pieces in order (for writev and for checksums): never concatenated.
    public func withWholeLine<R>(_ body: ([UnsafeRawBufferPointer]) throws -> R) rethrows -> R {
        try body(wholePieces())
    }

    /// The whole line's pieces in order. They point into this object's buffers (and a literal),
    /// which never move: valid while the object lives, so a holder of it may send them one by one.
    public func wholePieces() -> [UnsafeRawBufferPointer] {
        let all = UnsafeRawBufferPointer(skeleton)
        var pieces: [UnsafeRawBufferPointer] = []
        pieces.reserveCapacity(2 * partCount + 3)
        pieces.append(UnsafeRawBufferPointer(rebasing: all[..<pointsAt]))
        for index in 0..<partCount {
            if index == pointParts {
                pieces.append(UnsafeRawBufferPointer(rebasing: all[pointsAt..<controlPointsAt]))
            } else if index > 0 {
                pieces.append(Self.comma)
            }
            pieces.append(UnsafeRawBufferPointer(rebasing: part(index)[elements[index]]))
        }
        if pointParts == partCount { pieces.append(UnsafeRawBufferPointer(rebasing: all[pointsAt..<controlPointsAt])) }
        pieces.append(UnsafeRawBufferPointer(rebasing: all[controlPointsAt...]))
        return pieces
    }

    /// The whole line in one array: a copy, for a client that asked for whole strokes to hold.
    public func wholeLine() -> [UInt8] {
        withWholeLine { pieces in
            var line: [UInt8] = []
            line.reserveCapacity(wholeCount)
            for piece in pieces { line.append(contentsOf: piece) }
            return line
        }
    }

    /// A comma between two parts' elements of one array (a literal: its address never changes).
    private static var comma: UnsafeRawBufferPointer {
        let text: StaticString = ","
        return UnsafeRawBufferPointer(start: text.utf8Start, count: 1)
    }
}
