/// A drawing (PencilKit's `PKDrawing`): an ordered list of strokes, later ones
/// drawn over earlier ones. A value type: copying one is cheap (its storage is
/// shared until one copy changes), so an application's undo can keep whole
/// drawings as snapshots.
public struct Drawing: Sendable, Hashable {
    public var strokes: [Stroke]

    public init(strokes: [Stroke] = []) {
        self.strokes = strokes
    }

    public mutating func append(_ stroke: Stroke) {
        strokes.append(stroke)
    }

    /// Removes and returns the stroke at `index`.
    @discardableResult
    public mutating func remove(at index: Int) -> Stroke {
        strokes.remove(at: index)
    }

    /// Removes every stroke `shouldBeRemoved` picks.
    public mutating func removeAll(where shouldBeRemoved: (Stroke) throws -> Bool) rethrows {
        try strokes.removeAll(where: shouldBeRemoved)
    }

    /// This drawing with `other`'s strokes drawn on top.
    public func appending(_ other: Drawing) -> Drawing {
        Drawing(strokes: strokes + other.strokes)
    }

    /// Every stroke moved by `transform` (after its own).
    public func transformed(using transform: AffineTransform) -> Drawing {
        var result = self
        for i in result.strokes.indices {
            result.strokes[i].transform = result.strokes[i].transform.concatenating(transform)
        }
        return result
    }

    /// The area the visible strokes cover; nil for a drawing with nothing visible.
    public var bounds: StrokeBounds? {
        strokes.lazy.compactMap(\.renderBounds).reduce(nil) { $0?.union($1) ?? $1 }
    }
}
