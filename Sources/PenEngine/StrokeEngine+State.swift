import PenKit

/// One tool on one device.
struct ToolKey: Hashable {
    var device: UInt32
    var tool: ToolIdentity
}

enum TiltPhase: Equatable {
    /// The tool has no tilt axes.
    case unsupported
    /// Declared, but not seen to change since proximity-in (libinput marks every
    /// axis changed at proximity-in, so that is no evidence of a measurement).
    case unknown(deadline: UInt64)
    case measured
    /// Declared, but no change within `tiltTimeout`: not coming.
    case absent
}

struct ToolState {
    var tilt: TiltPhase
    var activeStroke: UInt64?
    var lastMeasuredForce: Double?
    /// Samples of this proximity that expect a tilt update.
    var awaitingTilt: [SampleRef] = []
}

enum SampleRef {
    case stroke(id: UInt64, index: Int)
    case hover(Sample)
}

struct StrokeState {
    var id: UInt64
    var key: ToolKey
    var ink: Ink
    var samples: [Sample] = []
    var ended = false
    var cancelled = false
    /// Samples whose `expectingUpdates` is not empty.
    var pending = 0
    var lastMeasuredForce: Double?
}

struct PendingForce {
    var device: UInt32
    var stroke: UInt64
    var index: Int
    var time: UInt64
}
