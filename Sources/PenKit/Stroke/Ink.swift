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
/// InkResponse.swift.
public struct Ink: Sendable, Hashable {
    public enum InkType: String, Sendable, Hashable, CaseIterable {
        case pen, pencil, marker
    }

    public var type: InkType
    public var color: InkColor
    /// Width in mm of a line drawn at the ink's reference force.
    public var width: Double

    public init(_ type: InkType, color: InkColor = .black, width: Double? = nil) {
        self.type = type
        self.color = color
        self.width = width ?? type.defaultWidth
    }
}

extension Ink.InkType {
    public var defaultWidth: Double {
        switch self {
        case .pen: 1.0
        case .pencil: 0.8
        case .marker: 4.0
        }
    }
}
