/// An RGBA color with components in [0, 1].
public struct InkColor: Sendable, Hashable {
    public var red: Double
    public var green: Double
    public var blue: Double
    public var alpha: Double

    public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    public static let black = InkColor(red: 0, green: 0, blue: 0)
}

/// How a stroke is drawn (PencilKit's `PKInk`): the kind of ink, its color and
/// its base width in mm. How width and opacity follow the pen is in
/// InkResponse.swift. The eraser is an ink type too, so that a stroke made with
/// the eraser end says so wherever it goes; it never draws (`Drawing.apply`).
public struct Ink: Sendable, Hashable {
    // `InkType`, the kinds of ink, is declared with their definitions (InkDefinition.swift).

    public var type: InkType
    public var color: InkColor
    /// Width in mm of a line drawn at the ink's reference force, within
    /// `type.validWidthRange` (the initializer clamps it there).
    public var width: Double

    public init(_ type: InkType, color: InkColor = .black, width: Double? = nil) {
        self.type = type
        self.color = color
        let w = width ?? type.defaultWidth
        self.width = w.isNaN ? type.defaultWidth : min(max(w, type.validWidthRange.lowerBound), type.validWidthRange.upperBound)
    }

    public var isEraser: Bool { type == .eraser }
}

extension Ink.InkType {
    public var defaultWidth: Double { definition.defaultWidth }

    /// The base widths an ink of this type accepts, mm.
    public var validWidthRange: ClosedRange<Double> { definition.widthRange }
}
