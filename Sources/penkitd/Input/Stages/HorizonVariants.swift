import PenEngine
import PenKit

/// Encodes each frame once more per prediction horizon that subscribed clients asked for beyond
/// the default (usually none). The requests change only when a client subscribes or leaves, so
/// the per-frame check is one atomic load (`PredictionVariants.changed`), never a lock.
struct HorizonVariants {
    private let shared: PredictionVariants?
    private var seen: UInt64 = .max
    private var requests: [PredictionRequest] = []

    init(shared: PredictionVariants?) { self.shared = shared }

    /// Adds `frame`'s encodings for the other horizons to the batch, right after its default one.
    /// Runs as the engine made the frame, so "now" is when it is ready to go out: Android's pipeline age.
    mutating func addAlternates(of frame: Frame, engine: inout StrokeEngine, to out: inout OutboundBatch) {
        if let changed = shared?.requests.changed(since: &seen) { requests = changed }
        guard !requests.isEmpty else { return }
        let now = MonotonicClock.now()
        for request in requests {
            let horizon = request.horizon(eventTime: frame.sample.time, now: now)
            out.appendAlternate(EngineMessage.frame(engine.repredicted(frame, horizon: horizon)), for: request)
        }
    }
}
