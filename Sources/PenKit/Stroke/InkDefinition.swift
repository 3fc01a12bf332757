/// Every number that makes an ink type what it is, in one table: its widths, its nib, how its
/// size and opacity follow the pen (InkResponse.swift applies them), and the colour the canvas
/// starts it with. The canvas of `penkit view` draws with the same table, which the view serves
/// as JSON (`tableJSON`) instead of keeping a copy of its own.
public struct InkDefinition: Sendable, Equatable {
    /// size (mm) = width · (base + force·f) · (1 + tilt·t) / (1 + v/speedScale), the last factor
    /// only where `speedScale` > 0; f force, t tilt, v speed in mm/s.
    public struct Size: Sendable, Equatable {
        public var base: Double, force: Double, tilt: Double = 0, speedScale: Double = 0
    }

    /// opacity = α · min(1, base + force·f) · (1 − min(v/fadeSpeed, fadeCap)), the last factor only
    /// where `fadeSpeed` > 0.
    public struct Opacity: Sendable, Equatable {
        public var base: Double, force: Double = 0, fadeSpeed: Double = 0, fadeCap: Double = 0
    }

    public var defaultWidth: Double
    /// The base widths an ink of this type accepts, mm.
    public var widthRange: ClosedRange<Double>
    /// `height / size` of the nib: 1 for a round nib (Ink+Nib.swift).
    public var nibAspect: Double = 1
    /// The nib's axis from the drawing's x axis towards its y axis at barrel roll 0, radians.
    public var nibAngle: Double = 0
    public var size: Size
    public var opacity: Opacity
    /// Grain, softness and blending, for the renderers (InkLook.swift).
    public var look = InkLook()
    /// The colour (#RRGGBB) the canvas's picker starts the ink with.
    public var canvasColor = "#000000"
}

extension Ink {
    /// The kinds of ink, each defined by its row below: a new ink is its case and its row here
    /// (docs/strokes.md's table of the inks is generated from them, and the canvas reads them as JSON).
    public enum InkType: String, Sendable, Hashable, CaseIterable {
        case pen, pencil, marker, eraser
        /// PencilKit's newer inks (iOS 17): one width whatever the pen does; a calligraphy
        /// nib; translucent, soft-edged paint; waxy, grainy crayon.
        case monoline, fountainPen, watercolor, crayon
    }
}

extension Ink.InkType {
    public var definition: InkDefinition {
        switch self {
        case .pen:
            InkDefinition(defaultWidth: 1.0, widthRange: 0.1...20, size: .init(base: 0.25, force: 1.5, speedScale: 1000),
                          opacity: .init(base: 1))
        case .pencil:
            InkDefinition(defaultWidth: 0.8, widthRange: 0.1...20, size: .init(base: 0.5, force: 1, tilt: 3),
                          opacity: .init(base: 0.1, force: 1.2),
                          // Graphite: a fine grain, about a fifth of a millimetre.
                          look: InkLook(grain: 0.2, grainFloor: 0.35), canvasColor: "#3a3a3a")
        case .marker:
            InkDefinition(defaultWidth: 4.0, widthRange: 1...40, nibAspect: 0.3, nibAngle: -Double.pi / 4,
                          size: .init(base: 0.8, force: 0.4), opacity: .init(base: 0.6, fadeSpeed: 2000, fadeCap: 0.5),
                          look: InkLook(multiply: true), canvasColor: "#ffd000")
        case .eraser:
            InkDefinition(defaultWidth: 6.0, widthRange: 0.5...50, size: .init(base: 1, force: 0), opacity: .init(base: 0))
        case .monoline:
            InkDefinition(defaultWidth: 1.0, widthRange: 0.1...20, size: .init(base: 1, force: 0), opacity: .init(base: 1))
        case .fountainPen:
            InkDefinition(defaultWidth: 1.5, widthRange: 0.1...20, nibAspect: 0.25, nibAngle: -Double.pi / 6,
                          size: .init(base: 0.4, force: 1.2), opacity: .init(base: 1), canvasColor: "#1b2a80")
        case .watercolor:
            InkDefinition(defaultWidth: 6.0, widthRange: 1...40, size: .init(base: 0.6, force: 0.8, tilt: 1),
                          opacity: .init(base: 0.25, force: 0.35),
                          // A translucent wash whose edges fade over about a tenth of the stroke's width.
                          look: InkLook(softness: 0.04), canvasColor: "#2f7fd0")
        case .crayon:
            InkDefinition(defaultWidth: 3.0, widthRange: 1...40, size: .init(base: 0.7, force: 0.6, tilt: 2),
                          opacity: .init(base: 0.5, force: 0.6),
                          // Wax on paper: a coarser grain that leaves more paper showing.
                          look: InkLook(grain: 0.45, grainFloor: 0.1), canvasColor: "#d62828")
        }
    }
}

extension InkDefinition {
    /// The table as one JSON object by ink name, in `InkType.allCases` order; numbers round-trip
    /// exactly as JavaScript doubles.
    public static func tableJSON(_ types: [Ink.InkType] = Ink.InkType.allCases) -> String {
        func n(_ x: Double) -> String { "\(x)" }
        let entries = types.map { type -> String in
            let d = type.definition
            return "\"\(type.rawValue)\":{\"defaultWidth\":\(n(d.defaultWidth)),\"range\":[\(n(d.widthRange.lowerBound)),\(n(d.widthRange.upperBound))],"
                + "\"nibAspect\":\(n(d.nibAspect)),\"nibAngle\":\(n(d.nibAngle)),"
                + "\"size\":{\"base\":\(n(d.size.base)),\"force\":\(n(d.size.force)),\"tilt\":\(n(d.size.tilt)),\"speedScale\":\(n(d.size.speedScale))},"
                + "\"opacity\":{\"base\":\(n(d.opacity.base)),\"force\":\(n(d.opacity.force)),\"fadeSpeed\":\(n(d.opacity.fadeSpeed)),\"fadeCap\":\(n(d.opacity.fadeCap))},"
                + "\"multiply\":\(d.look.multiply),\"canvasColor\":\"\(d.canvasColor)\"}"
        }
        return "{" + entries.joined(separator: ",") + "}"
    }
}
