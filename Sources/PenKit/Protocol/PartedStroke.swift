/// A finalized stroke too long for one bounded line, sent as `strokePart` lines and a closing
/// `stroke` line (docs/protocol.md, "Long strokes"), each part from its own slice of the points.
///
/// The same object also gives the whole line, byte for byte as `EngineMessage.stroke`'s, for
/// clients that did not ask for parts and for the journal: the skeleton (the whole line with empty
/// `points` and `controlPoints`) and the parts' elements, joined by commas. The whole line is never
/// built, and a stroke longer than `keptLineBytes` never holds all its parts at once: a part's line
/// is encoded when a reader comes to it (through `EncodedPartCache`, so readers at the same place
/// share it) and let go after. A 600 s stroke is 19 MB of points but 47 MB of lines
/// (docs/dataplane.md, "Long strokes in parts").
///
/// Making one encodes every part once, to learn the lines' sizes (`wholeCount`, `partedCount`),
/// which a client's queue and the history count. A stroke whose parts come to at most
/// `keptLineBytes` (about 12 s of pen) keeps them from that pass, so a stroke of common length
/// costs one encoding, as a short stroke's line does; a longer one keeps none and encodes each
/// part again for each reader that comes to it. Immutable once made.
public final class PartedStroke: Sendable {
    public let seq: UInt64
    public let strokeID: UInt64
    private let finalized: FinalizedStroke
    private let pointsPerPart: Int
    /// How many of the parts carry points; the rest carry control points.
    private let pointParts: Int
    /// Bytes of each part's line, newline included, and where its array's elements lie in it.
    private let lineCounts: [Int]
    /// Every part's line, when they came to at most `keptLineBytes`; else empty.
    private let keptLines: [[UInt8]]
    private let elements: [Range<Int>]
    /// The closing `stroke` line for clients that take parts: the whole line's fields, `"parts":N`,
    /// and empty arrays.
    private let headLine: [UInt8]
    /// The whole line without its arrays' elements, and where the points' and control points'
    /// elements go in it.
    private let skeleton: [UInt8]
    private let pointsAt: Int
    private let controlPointsAt: Int
    /// The whole line's pieces in order, in groups: group k ends with part k's elements (the last
    /// group also holds the skeleton's tail), so a reader that has one part's line at hand writes
    /// one group.
    private let groups: [[WholePiece]]
    /// Where its parts are kept as they are read, and this stroke's key there.
    private let cache: EncodedPartCache
    private let cacheOwner: UInt64
    /// Bytes of the whole line (newline included), as a client that does not take parts gets it.
    public let wholeCount: Int
    /// Bytes of the parts and the closing line together, as a client that takes parts gets them.
    public let partedCount: Int

    /// Points (and control points) per part unless penkitd is told otherwise (`stroke-part-points`):
    /// a point's line is at most about 400 bytes, so a part's line stays under 256 KiB.
    public static let defaultPointsPerPart = 512
    /// The most points per part a server may choose (`stroke-part-points`): 256 KiB lines at most.
    public static let maxPointsPerPart = 512
    /// The most bytes of part lines a stroke keeps from the pass that made it (1 MiB: a stroke
    /// of about 12 s at 200 Hz); past it the parts are encoded when read.
    public static let keptLineBytes = 1 << 20

    /// A piece of the whole line: a slice of the skeleton, a comma between two parts' elements of
    /// one array, or part `index`'s elements.
    private enum WholePiece: Sendable {
        case skeleton(Range<Int>)
        case comma
        case elements(Int)
    }

    /// The stroke in parts of at most `pointsPerPart` points or control points, or nil when both
    /// arrays fit in one part: such a stroke goes out as one `stroke` line to every client.
    public static func encode(_ finalized: FinalizedStroke, pointsPerPart: Int) -> PartedStroke? {
        encode(finalized, pointsPerPart: pointsPerPart, keptLineBytes: keptLineBytes, cache: .shared)
    }

    /// The same, keeping its part lines if they come to at most `keptLineBytes`, else encoding
    /// them when read, through `cache`.
    package static func encode(_ finalized: FinalizedStroke, pointsPerPart: Int, keptLineBytes: Int,
                               cache: EncodedPartCache) -> PartedStroke? {
        precondition(pointsPerPart > 0, "pointsPerPart must be positive")
        let stroke = finalized.stroke
        guard stroke.points.count > pointsPerPart || stroke.path.controlPoints.count > pointsPerPart else { return nil }
        return PartedStroke(finalized, pointsPerPart: pointsPerPart, keptLineBytes: keptLineBytes, cache: cache)
    }

    private init(_ finalized: FinalizedStroke, pointsPerPart: Int, keptLineBytes: Int, cache: EncodedPartCache) {
        seq = finalized.seq
        strokeID = finalized.stroke.id
        self.finalized = finalized
        self.pointsPerPart = pointsPerPart
        let pointParts = Self.chunks(finalized.stroke.points.count, pointsPerPart)
        let partCount = pointParts + Self.chunks(finalized.stroke.path.controlPoints.count, pointsPerPart)
        self.pointParts = pointParts

        // One writer, reused for every line: it grows to one part's size, never to the stroke's.
        var w = JSONWriter(capacity: 64 << 10)
        var counts: [Int] = []
        var ranges: [Range<Int>] = []
        var kept: [[UInt8]] = []
        var keeping = true
        var total = 0
        counts.reserveCapacity(partCount)
        ranges.reserveCapacity(partCount)
        for index in 0..<partCount {
            w.removeAll()
            ranges.append(Self.writePart(index, of: finalized, pointParts: pointParts, pointsPerPart: pointsPerPart, to: &w))
            counts.append(w.count)
            total += w.count
            if keeping, total <= keptLineBytes {
                kept.append(w.bytes)
            } else if keeping {
                keeping = false
                kept = []
            }
        }
        lineCounts = counts
        keptLines = kept
        elements = ranges

        w.removeAll()
        let offsets = Self.writeMessage(finalized, parts: nil, to: &w)
        skeleton = w.bytes
        pointsAt = offsets.points
        controlPointsAt = offsets.controlPoints
        w.removeAll()
        _ = Self.writeMessage(finalized, parts: partCount, to: &w)
        headLine = w.bytes
        groups = Self.groups(partCount: partCount, pointParts: pointParts, skeletonCount: skeleton.count,
                             pointsAt: offsets.points, controlPointsAt: offsets.controlPoints)

        let elementBytes = ranges.reduce(0) { $0 + $1.count }
        // A comma between consecutive parts' elements of the same array.
        let commas = max(pointParts - 1, 0) + max(partCount - pointParts - 1, 0)
        wholeCount = skeleton.count + elementBytes + commas
        partedCount = counts.reduce(headLine.count, +)
        self.cache = cache
        cacheOwner = cache.newOwner()
    }

    deinit { cache.forget(owner: cacheOwner) }

    private static func chunks(_ count: Int, _ size: Int) -> Int { (count + size - 1) / size }

    /// Writes part `index`'s line (newline included); returns where its elements lie in the writer.
    private static func writePart(_ index: Int, of m: FinalizedStroke, pointParts: Int, pointsPerPart: Int,
                                  to w: inout JSONWriter) -> Range<Int> {
        let start = w.count
        w.raw("{")
        w.field("type", plain: "strokePart")
        w.field("seq", m.seq)
        w.field("stroke", m.stroke.id)
        w.field("part", index)
        let first: Int
        if index < pointParts {
            first = index * pointsPerPart
            w.key("points"); w.raw("[")
        } else {
            first = (index - pointParts) * pointsPerPart
            w.key("controlPoints"); w.raw("[")
        }
        let elementsStart = w.count
        if index < pointParts {
            for p in m.stroke.points[first..<min(first + pointsPerPart, m.stroke.points.count)] { w.separateElement(); w.write(p) }
        } else {
            let controlPoints = m.stroke.path.controlPoints
            for p in controlPoints[first..<min(first + pointsPerPart, controlPoints.count)] { w.separateElement(); w.write(p) }
        }
        let elementsEnd = w.count
        w.raw("]}")
        w.byte(UInt8(ascii: "\n"))
        return (elementsStart - start)..<(elementsEnd - start)
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

    /// The whole line's pieces in order, grouped so that each group ends with one part's elements.
    private static func groups(partCount: Int, pointParts: Int, skeletonCount: Int, pointsAt: Int,
                               controlPointsAt: Int) -> [[WholePiece]] {
        var groups: [[WholePiece]] = []
        var group: [WholePiece] = [.skeleton(0..<pointsAt)]
        for index in 0..<partCount {
            if index == pointParts {
                group.append(.skeleton(pointsAt..<controlPointsAt))
            } else if index > 0 {
                group.append(.comma)
            }
            group.append(.elements(index))
            groups.append(group)
            group = []
        }
        if pointParts == partCount { group.append(.skeleton(pointsAt..<controlPointsAt)) }
        group.append(.skeleton(controlPointsAt..<skeletonCount))
        groups[groups.count - 1].append(contentsOf: group)
        return groups
    }

    public var partCount: Int { lineCounts.count }

    /// The lines a client that takes parts gets, in order: every part, then the closing line.
    public var partedLineCount: Int { partCount + 1 }

    /// Line `index` of those a client that takes parts gets (newline included), for as long as
    /// `body` runs.
    public func withPartedLine<R>(_ index: Int, _ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        guard index < partCount else { return try headLine.withUnsafeBytes(body) }
        return try part(index).withUnsafeBytes(body)
    }

    /// The closing `stroke` line a client that takes parts gets after the parts.
    public var head: [UInt8] { headLine }

    /// How many groups of pieces the whole line comes in (`withWholeLineGroup`): one per part.
    public var wholeLineGroupCount: Int { groups.count }

    /// Group `index` of the whole line's pieces, in order, for as long as `body` runs: what a
    /// client that takes whole strokes gets next, one part's worth at a time.
    public func withWholeLineGroup<R>(_ index: Int, _ body: ([UnsafeRawBufferPointer]) throws -> R) rethrows -> R {
        try part(index).withUnsafeBytes { line in try withPieces(groups[index], line: line, body) }
    }

    /// The whole line's pieces in order, one group (one part's worth) at a time, each part encoded
    /// into one reused buffer and never kept: for a single reader that walks the whole line once
    /// (the journal, the flight recorder), leaving the shared cache to clients.
    public func forEachWholeLineGroup(_ body: ([UnsafeRawBufferPointer]) throws -> Void) rethrows {
        if !keptLines.isEmpty {
            for (index, group) in groups.enumerated() { try keptLines[index].withUnsafeBytes { try withPieces(group, line: $0, body) } }
            return
        }
        var w = JSONWriter(capacity: 64 << 10)
        for (index, group) in groups.enumerated() {
            w.removeAll()
            _ = Self.writePart(index, of: finalized, pointParts: pointParts, pointsPerPart: pointsPerPart, to: &w)
            try w.bytes.withUnsafeBytes { line in try withPieces(group, line: line, body) }
        }
    }

    /// The whole line in one array: a copy (tests, and a reader that must hold it).
    public func wholeLine() -> [UInt8] {
        var line: [UInt8] = []
        line.reserveCapacity(wholeCount)
        forEachWholeLineGroup { pieces in for piece in pieces { line.append(contentsOf: piece) } }
        return line
    }

    /// Part `index`'s line: kept, from the cache, or encoded now.
    private func part(_ index: Int) -> [UInt8] {
        guard keptLines.isEmpty else { return keptLines[index] }
        return cache.line(owner: cacheOwner, index: index) {
            var w = JSONWriter(capacity: lineCounts[index])
            _ = Self.writePart(index, of: finalized, pointParts: pointParts, pointsPerPart: pointsPerPart, to: &w)
            return w.bytes
        }
    }

    /// A group's pieces, with `line` (the group's part's line) for its elements, for as long as
    /// `body` runs.
    private func withPieces<R>(_ group: [WholePiece], line: UnsafeRawBufferPointer,
                               _ body: ([UnsafeRawBufferPointer]) throws -> R) rethrows -> R {
        try skeleton.withUnsafeBytes { all in
            try body(group.map { piece in
                switch piece {
                case .skeleton(let range): UnsafeRawBufferPointer(rebasing: all[range])
                case .comma: Self.comma
                case .elements(let index): UnsafeRawBufferPointer(rebasing: line[elements[index]])
                }
            })
        }
    }

    /// A comma between two parts' elements of one array (a literal: its address never changes).
    private static var comma: UnsafeRawBufferPointer {
        let text: StaticString = ","
        return UnsafeRawBufferPointer(start: text.utf8Start, count: 1)
    }
}
