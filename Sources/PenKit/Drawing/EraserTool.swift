/// How erasing works (PencilKit's `PKEraserTool`).
public struct EraserTool: Sendable, Hashable {
    public enum Mode: String, Sendable, Hashable, CaseIterable {
        /// PencilKit's vector eraser: a stroke the eraser touches is removed whole.
        case object
        /// PencilKit's bitmap eraser: the touched parts are cut away; a stroke cut
        /// through becomes several.
        case pixel
    }

    public var mode: Mode
    /// Width of the eraser's tip, mm: it touches what comes within half of it.
    public var width: Double

    /// The widths an eraser accepts, mm (`Ink.InkType.eraser.validWidthRange`).
    public static var validWidthRange: ClosedRange<Double> { Ink.InkType.eraser.validWidthRange }

    public init(_ mode: Mode = .object, width: Double? = nil) {
        self.mode = mode
        let w = width ?? (mode == .object ? 2 : Ink.InkType.eraser.defaultWidth)
        self.width = w.isNaN ? Ink.InkType.eraser.defaultWidth
            : min(max(w, Self.validWidthRange.lowerBound), Self.validWidthRange.upperBound)
    }
}

/// What one pass of the eraser did.
public struct EraseResult: Sendable, Hashable {
    /// Strokes removed whole (object eraser, or pixel eraser that left nothing).
    public var removed = 0
    /// Strokes the pixel eraser cut but left in one piece.
    public var cut = 0
    /// Strokes the pixel eraser cut into several, and the pieces they became.
    public var split = 0
    public var pieces = 0

    public init() {}

    public var touched: Int { removed + cut + split }

    /// Adds another pass's counts to these.
    public mutating func add(_ other: EraseResult) {
        removed += other.removed
        cut += other.cut
        split += other.split
        pieces += other.pieces
    }
}
