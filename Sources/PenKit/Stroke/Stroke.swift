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
    public var path: StrokePath

    public init(id: UInt64, tool: ToolIdentity, ink: Ink, cancelled: Bool,
                points: [StrokeSample], path: StrokePath) {
        self.id = id
        self.tool = tool
        self.ink = ink
        self.cancelled = cancelled
        self.points = points
        self.path = path
    }

    /// Kernel time in µs of the first sample.
    public var creationTime: UInt64 { path.creationTime }
}
