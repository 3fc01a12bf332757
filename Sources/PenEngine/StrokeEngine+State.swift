import PenKit

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
    /// When it stops waiting and its estimate expires.
    var deadline: UInt64
}

extension StrokeEngine {
    /// Runs `body` on the stroke in place, through the dictionary's own storage.
    /// `var stroke = strokes[id]` … `strokes[id] = stroke` would instead copy the
    /// stroke while the table still holds it, so the next `samples.append` copies
    /// every sample: quadratic in stroke length.
    mutating func withStroke<R>(_ id: UInt64, _ body: (inout StrokeState) -> R) -> R? {
        guard let index = strokes.index(forKey: id) else { return nil }
        return body(&strokes.values[index])
    }
}
