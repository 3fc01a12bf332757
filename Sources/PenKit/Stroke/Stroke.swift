/// A finalized stroke (PencilKit's `PKStroke`): one tip-down … tip-up of one
/// tool, with its measured samples and the B-spline path through them.
public struct Stroke: Sendable, Hashable {
    /// Engine-assigned, in the order strokes began.
    public var id: UInt64
    public var tool: ToolIdentity
    public var ink: Ink
    /// Ended by proximity loss or device removal rather than tip-up.
    public var cancelled: Bool
    public var points: [StrokeSample]
    /// In the stroke's own coordinates; `transform` places it in the drawing.
    public var path: StrokePath
    /// From the path's coordinates to the drawing's (PencilKit's `PKStroke.transform`).
    public var transform: AffineTransform
    /// What erasing hid; nil when the whole path shows (see `maskedPathRanges`).
    public var mask: StrokeMask?
    /// Seeds the texture of inks that have one (the pencil's grain), so a stroke
    /// looks the same every time it is drawn.
    public var randomSeed: UInt32

    public init(id: UInt64, tool: ToolIdentity, ink: Ink, cancelled: Bool,
                points: [StrokeSample], path: StrokePath, transform: AffineTransform = .identity,
                mask: StrokeMask? = nil, randomSeed: UInt32? = nil) {
        self.id = id
        self.tool = tool
        self.ink = ink
        self.cancelled = cancelled
        self.points = points
        self.path = path
        self.transform = transform
        self.mask = mask
        self.randomSeed = randomSeed ?? Self.defaultSeed(id: id)
    }

    /// A seed that depends only on the id, so that replaying a trace gives the same texture.
    public static func defaultSeed(id: UInt64) -> UInt32 {
        var z = id &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return UInt32(truncatingIfNeeded: z ^ (z >> 31))
    }

    /// Kernel time in µs of the first sample.
    public var creationTime: UInt64 { path.creationTime }
}
