import PenKit

/// The prediction horizons subscribed clients asked for, other than the default: the hub writes
/// it (under its lock, on the socket loop) when a client subscribes or leaves; the input thread
/// checks its generation once per frame (`SharedSetting`) and takes the lock only after a change.
final class PredictionVariants: Sendable {
    /// The distinct requests that differ from `PredictionRequest.standard`.
    let requests = SharedSetting<[PredictionRequest]>([])

    func update(_ all: some Sequence<PredictionRequest>) {
        var distinct: [PredictionRequest] = []
        for request in all where request != .standard && !distinct.contains(request) { distinct.append(request) }
        requests.replace(distinct)
    }
}
