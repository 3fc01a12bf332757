import Dispatch
import PenKit

/// `subscribe`: what the client receives from now on (channels, horizon, strokes in parts), and
/// the strokes it missed since `since`, replayed ahead of anything new.
struct SubscribeHandler: Sendable {
    /// Where the input thread learns of the horizons clients ask for.
    let inputControl: ControlQueue
    /// Signalled at every subscription, for `Hub.waitForSubscribers`.
    let subscribed: DispatchSemaphore

    func handle(_ request: SubscribeRequest, from client: ClientConnection, _ state: inout HubState) {
        client.channels = request.channels
        client.prediction = request.predict ?? .standard
        client.strokeParts = request.strokeParts
        // Before the signal: a replay that waited for this subscriber encodes its horizon from the first frame.
        postHorizons(&state)
        subscribed.signal()
        var replay: [(seq: UInt64, line: ReliableLine)] = []
        let history = state.fanOut.history
        if let since = request.since, request.channels.contains(.strokes) {
            if let missing = history.missing(after: since) {
                client.sendControl(ErrorMessage(
                    code: .historyGap,
                    message: "strokes \(missing.lowerBound)...\(missing.upperBound) are no longer in the history; "
                        + (history.entries.isEmpty ? "none is held" : "replaying from \(history.oldestSeq)")))
            }
            replay = history.after(since)
        }
        // Under the hub's lock, as every `device` message is sent: no change falls between this
        // list and the first `device` message the client gets.
        let devices = request.channels.contains(.devices) ? state.fanOut.devicesByID : nil
        client.sendControl(SubscribedMessage(channels: request.channels, replaying: replay.count,
                                             predict: client.prediction, devices: devices,
                                             strokePartPoints: request.strokeParts ? state.control.strokePartPoints : nil))
        if request.channels.contains(.devices) {
            for (_, line) in state.fanOut.sourceStates.sorted(by: { $0.key < $1.key }) {
                client.deliverReliable(seq: 0, line: .bytes(line), channel: .devices)
            }
        }
        client.replay(replay)
    }

    /// Tells the input thread the distinct horizons clients ask for beyond the default, when they
    /// changed: at a subscription, and when a client leaves (`Hub`).
    func postHorizons(_ state: inout HubState) {
        var distinct: [PredictionRequest] = []
        for client in state.fanOut.clients.values where client.prediction != .standard && !distinct.contains(client.prediction) {
            distinct.append(client.prediction)
        }
        guard distinct != state.control.horizons else { return }
        state.control.horizons = distinct
        inputControl.post(.horizons(distinct))
    }
}
