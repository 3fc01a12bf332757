import PenKit
import Synchronization

/// The prediction horizons subscribed clients asked for, other than the default: the hub writes
/// it (under its lock, on the socket loop) when a client subscribes or leaves, the input thread reads it once per
/// frame to encode that frame once per distinct horizon (usually none beyond the default).
final class PredictionVariants: Sendable {
    private let requests = Mutex<[PredictionRequest]>([])

    /// The distinct requests that differ from `PredictionRequest.standard`.
    var current: [PredictionRequest] { requests.withLock { $0 } }

    func update(_ all: some Sequence<PredictionRequest>) {
        var distinct: [PredictionRequest] = []
        for request in all where request != .standard && !distinct.contains(request) { distinct.append(request) }
        requests.withLock { $0 = distinct }
    }
}
