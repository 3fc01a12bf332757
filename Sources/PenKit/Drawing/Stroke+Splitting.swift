/// What the pixel eraser does to one stroke.
extension Stroke {
    /// This stroke with `region` added to its mask: none when nothing visible is
    /// left, itself when one visible range remains, and one piece per range when
    /// the cut separates them (PencilKit makes the parts separate strokes).
    public func cut(by region: ErasedRegion) -> [Stroke] {
        var masked = self
        var mask = self.mask ?? StrokeMask()
        mask.erased.append(region)
        masked.mask = mask
        let ranges = masked.maskedPathRanges
        if ranges.count <= 1 { return ranges.isEmpty ? [] : [masked] }
        return ranges.map { masked.piece(keeping: $0) }
    }

    /// The part of the stroke over the parametric range `range`, on a path cut
    /// down to the control points it needs. A uniform cubic B-spline segment
    /// [i, i + 1] depends on control points i − 1 … i + 2, so one control point is
    /// kept past each end of the range: the curve over the range is then the
    /// same as the original's (parameters shift by a whole number, which is
    /// exact), and the mask's clip hides the rest.
    func piece(keeping range: ClosedRange<Double>) -> Stroke {
        let n = path.controlPoints.count
        let first = max(Int(range.lowerBound.rounded(.down)) - 1, 0)
        let last = min(Int(range.upperBound.rounded(.up)) + 1, n - 1)
        var piece = self
        piece.path.controlPoints = Array(path.controlPoints[first...last])
        // Measured samples follow the control points one for one when the path was fitted to them.
        if points.count == n { piece.points = Array(points[first...last]) }
        let shift = Double(first)
        var mask = self.mask ?? StrokeMask()
        mask.clip = (range.lowerBound - shift)...(range.upperBound - shift)
        piece.mask = mask
        return piece
    }
}
