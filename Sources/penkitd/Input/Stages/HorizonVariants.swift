import PenEngine
import PenKit

/// Encodes each frame once more per prediction horizon that subscribed clients asked for beyond
/// the default (usually none). The requests change only when a client subscribes or leaves: the
/// control plane then posts them (`ControlInput.horizons`). Runs after the encoder, on the frames
/// it just encoded, each alternate kept with its frame's message.
struct HorizonVariants: PipelineStage {
    private var requests: [PredictionRequest] = []

    mutating func run(_ input: PipelineInput, _ call: inout PipelineCall, _ out: inout OutboundBatch) {
        if case .control(.horizons(let requests)) = input {
            // The horizons clients ask for now, from the next frame on.
            self.requests = requests
            return
        }
        guard !requests.isEmpty, !call.newlyEncoded.isEmpty else { return }
        // "Now" is when the frames are ready to go out: Android's pipeline age.
        let now = MonotonicClock.now()
        for (offset, index) in call.newlyEncoded.enumerated() {
            guard case .frame(let frame) = call.replies[index] else { continue }
            for request in requests {
                let horizon = request.horizon(eventTime: frame.sample.time, now: now)
                out.appendAlternate(EngineMessage.frame(call.engine.repredicted(frame, horizon: horizon)), for: request,
                                    at: call.firstNewMessage + offset)
            }
        }
    }
}
