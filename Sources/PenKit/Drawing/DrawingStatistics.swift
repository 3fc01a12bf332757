/// What a drawing holds, as `penkit drawing --info` prints it.
public struct DrawingStatistics: Sendable, Hashable {
    public var strokes = 0
    /// Measured samples over all strokes.
    public var points = 0
    /// Strokes with part of them erased (a mask with at least one erased region).
    public var erasedStrokes = 0
    /// Strokes that are pieces of a stroke the pixel eraser cut in several (a mask with a clip).
    public var splitStrokes = 0

    public init(_ drawing: Drawing) {
        strokes = drawing.strokes.count
        for stroke in drawing.strokes {
            points += stroke.points.count
            if let mask = stroke.mask {
                if !mask.erased.isEmpty { erasedStrokes += 1 }
                if mask.clip != nil { splitStrokes += 1 }
            }
        }
    }

    /// Bytes of the same strokes as the daemon's `stroke` message lines (newline included).
    public func jsonLinesBytes(_ drawing: Drawing) -> Int {
        drawing.strokes.enumerated().reduce(0) { total, item in
            total + EngineMessage.stroke(FinalizedStroke(seq: UInt64(item.offset + 1), stroke: item.element)).jsonLine().utf8.count + 1
        }
    }
}
