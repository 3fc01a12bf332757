import PenEngine
import PenKit

/// Encodes each frame once more per prediction horizon that subscribed clients asked for beyond
/// the default (usually none). The requests change only when a client subscribes or leaves: the
/// control plane then posts them (`ControlInput.horizons`) and the pipeline hands them here.
struct HorizonVariants {
    private var requests: [PredictionRequest] = []

    /// The horizons clients ask for now, from the next frame on.
    mutating func replace(_ requests: [PredictionRequest]) { self.requests = requests }

    /// Adds `frame`'s encodings for the other horizons to the batch, right after its default one.
    /// Runs as the engine made the frame, so "now" is when it is ready to go out: Android's pipeline age.
    mutating func addAlternates(of frame: Frame, engine: inout StrokeEngine, to out: inout OutboundBatch) {
        guard !requests.isEmpty else { return }
        let now = MonotonicClock.now()
        for request in requests {
            let horizon = request.horizon(eventTime: frame.sample.time, now: now)
            out.appendAlternate(EngineMessage.frame(engine.repredicted(frame, horizon: horizon)), for: request)
        }
    }
}
