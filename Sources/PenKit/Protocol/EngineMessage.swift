/// What the stroke engine publishes, in order: the messages of
/// `penkit replay --json` and of the daemon's socket (docs/protocol.md).
public enum EngineMessage: Sendable, Hashable {
    /// One sample at the device's native rate, hovering or in contact.
    case frame(Frame)
    /// Tip down: a stroke starts.
    case began(StrokeBegan)
    /// Refined values for a sample published earlier, or word that none will come.
    case update(SampleUpdate)
    /// Tip up or cancellation: no more frames for this stroke; updates may follow.
    case ended(StrokeEnded)
    /// A stroke once nothing is pending; exactly once per stroke, in begin order.
    case stroke(FinalizedStroke)

    /// The device the message comes from.
    public var device: UInt32 {
        switch self {
        case .frame(let m): m.device
        case .began(let m): m.device
        case .update(let m): m.device
        case .ended(let m): m.device
        case .stroke(let m): m.device
        }
    }

    public var typeName: String {
        switch self {
        case .frame: "frame"
        case .began: "began"
        case .update: "update"
        case .ended: "ended"
        case .stroke: "stroke"
        }
    }
}

public struct Frame: Sendable, Hashable {
    public var tool: ToolIdentity
    /// The stroke this contact frame belongs to; nil while hovering.
    public var stroke: UInt64?
    public var sample: Sample
    /// Samples predicted past `sample`, for rendering only; replaced by the next frame.
    public var predicted: [Sample]
    /// Distance (mm) within which the real pen should be, at the last predicted sample's
    /// time, about 68 % of the time; learned from this pen's own recent predictions.
    public var expectedError: Double?
    /// Probability that the pen lifts before the last predicted sample's time (contact only).
    public var liftProbability: Double?
    /// The device id of `hello` and `device` messages (0 outside penkitd).
    public var device: UInt32
    /// Where penkitd's virtual tablet put the pen for this report (mm, the space of `sample`):
    /// what apps reading the compositor get for it. nil without a virtual tablet.
    public var delivered: DeliveredPosition?

    public init(tool: ToolIdentity, stroke: UInt64?, sample: Sample, predicted: [Sample] = [],
                expectedError: Double? = nil, liftProbability: Double? = nil, device: UInt32 = 0,
                delivered: DeliveredPosition? = nil) {
        self.delivered = delivered
        self.device = device
        self.tool = tool
        self.stroke = stroke
        self.sample = sample
        self.predicted = predicted
        self.expectedError = expectedError
        self.liftProbability = liftProbability
    }
}

/// A position the virtual tablet wrote (mm), and when.
public struct DeliveredPosition: Sendable, Hashable, Decodable {
    public var x: Double
    public var y: Double
    /// When penkitd wrote it (µs, CLOCK_MONOTONIC): the time the kernel stamps the virtual
    /// tablet's report with, which compositors pass on to apps, whereas `sample.time` is the real
    /// report's. penkitd's own delay between the two varies (0–28 ms seen under emulation), so an
    /// app's event time pairs with this one (SurfacePairing). nil from older penkitd.
    public var time: UInt64?
    public init(x: Double, y: Double, time: UInt64? = nil) {
        self.x = x
        self.y = y
        self.time = time
    }

    private enum CodingKeys: String, CodingKey { case x, y, time = "t" }
}

public struct StrokeBegan: Sendable, Hashable {
    public var stroke: UInt64
    public var tool: ToolIdentity
    public var ink: Ink
    /// Time in µs of the tip-down.
    public var time: UInt64
    public var device: UInt32

    public init(stroke: UInt64, tool: ToolIdentity, ink: Ink, time: UInt64, device: UInt32 = 0) {
        self.device = device
        self.stroke = stroke
        self.tool = tool
        self.ink = ink
        self.time = time
    }
}

public struct SampleUpdate: Sendable, Hashable {
    /// The stroke of the updated sample; nil for a hover sample.
    public var stroke: UInt64?
    public var updateIndex: UInt64
    /// Properties that now have their measured values.
    public var updated: SampleProperties
    /// Properties for which no update will come: they stay estimated.
    public var expired: SampleProperties
    /// The sample as it is now (`expectingUpdates` says what is still pending).
    public var sample: Sample
    public var device: UInt32

    public init(stroke: UInt64?, updateIndex: UInt64, updated: SampleProperties,
                expired: SampleProperties, sample: Sample, device: UInt32 = 0) {
        self.device = device
        self.stroke = stroke
        self.updateIndex = updateIndex
        self.updated = updated
        self.expired = expired
        self.sample = sample
    }
}

public struct StrokeEnded: Sendable, Hashable {
    public var stroke: UInt64
    /// Time in µs of the tip-up, or of the event that cancelled the stroke.
    public var time: UInt64
    public var cancelled: Bool
    /// How many samples still expect an update.
    public var pendingUpdates: Int
    public var device: UInt32

    public init(stroke: UInt64, time: UInt64, cancelled: Bool, pendingUpdates: Int, device: UInt32 = 0) {
        self.device = device
        self.stroke = stroke
        self.time = time
        self.cancelled = cancelled
        self.pendingUpdates = pendingUpdates
    }
}

public struct FinalizedStroke: Sendable, Hashable {
    /// 1, 2, 3 … per engine, in the order strokes began; clients resume with it.
    public var seq: UInt64
    public var stroke: Stroke
    public var device: UInt32

    public init(seq: UInt64, stroke: Stroke, device: UInt32 = 0) {
        self.device = device
        self.seq = seq
        self.stroke = stroke
    }
}
