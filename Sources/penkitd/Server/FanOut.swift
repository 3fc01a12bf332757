import PenKit

/// The data plane: the connected clients, the stroke history and the devices, and the fan-out
/// of each published batch to every client that subscribed to its channels. It writes, queues
/// and cuts off (`ClientConnection`), and knows nothing of requests: the control plane
/// (`RequestRouter`) changes what a client subscribed to, this only delivers by it.
///
/// Guarded by the hub's lock (`HubState`): the input thread publishes through it, the socket
/// loop adds and removes clients and sends their leftovers.
struct FanOut {
    var clients: [Int32: ClientConnection] = [:]
    var history: StrokeHistory
    var devices: [Int: DeviceInfo] = [:]
    /// Each device's latest `pressure-source` line, as the input thread published it: a client
    /// that subscribes to `devices` later gets it after `subscribed`.
    var sourceStates: [Int: [UInt8]] = [:]

    init(history: StrokeHistory) { self.history = history }

    /// The devices as `hello` and `subscribed` list them.
    var devicesByID: [DeviceInfo] { devices.values.sorted { $0.id < $1.id } }

    /// Writes a batch to every subscribed client; never waits on a client. Allocates only the
    /// copies that reliable lines need (one, shared by the history and every client).
    mutating func publish(_ batch: OutboundBatch) {
        batch.bytes.withUnsafeBytes { bytes in
            for message in batch.messages {
                let line = UnsafeRawBufferPointer(rebasing: bytes[message.range])
                if message.isLive {
                    if message.alternates.isEmpty {
                        for client in clients.values { client.deliverLive(line, channel: message.channel) }
                    } else {
                        for client in clients.values {
                            let own = UnsafeRawBufferPointer(rebasing: bytes[message.range(for: client.prediction)])
                            client.deliverLive(own, channel: message.channel)
                        }
                    }
                } else if let parted = message.parted {
                    // A long stroke, in parts: shared by the history and every client, each
                    // of which gets it in parts or whole as it asked.
                    let kept = ReliableLine.parted(parted)
                    history.append(seq: message.seq, line: kept)
                    for client in clients.values { client.deliverReliable(seq: message.seq, line: kept, channel: message.channel) }
                } else {
                    // One copy, shared by the history and every client that must queue it.
                    let kept = Array(line)
                    if message.seq > 0 { history.append(seq: message.seq, line: .bytes(kept)) }
                    if message.sourceStateOf > 0 { sourceStates[message.sourceStateOf] = kept }
                    for client in clients.values { client.deliverReliable(seq: message.seq, line: .bytes(kept), channel: message.channel) }
                }
            }
            // Each client's run of lines goes out in one send, while the batch's bytes are valid.
            for client in clients.values { client.flushRun() }
        }
    }

    /// A device came, went or changed: the list `hello` gives changes, and every client that
    /// subscribed to `devices` is told, in order with the strokes.
    mutating func deliver(_ change: DeviceChangeMessage) {
        let line = change.jsonBytes() + [UInt8(ascii: "\n")]
        devices[change.device.id] = change.change == .removed ? nil : change.device
        if change.change == .removed { sourceStates[change.device.id] = nil }
        for client in clients.values { client.deliverReliable(seq: 0, line: .bytes(line), channel: .devices) }
    }

    /// Warms each client the next frame would be written to; returns a value made of the reads.
    func warm() -> Int {
        clients.values.reduce(0) { $0 &+ $1.warm() }
    }

    /// Closes clients whose close grace has run out; returns the next such deadline.
    func expireCloses(now: UInt64) -> UInt64 {
        var next = UInt64.max
        for client in clients.values {
            client.expire(now: now)
            next = min(next, client.nextDeadline)
        }
        return next
    }

    /// Whether a client finished (its socket failed, or it was closed and took its last line).
    var hasFinished: Bool { clients.values.contains { $0.finished } }

    /// Takes finished clients out of the table, handing each to `removed` (which closes it).
    mutating func removeFinished(_ removed: (ClientConnection) -> Void) {
        for (fd, client) in clients where client.finished {
            clients[fd] = nil
            removed(client)
        }
    }

    /// Clients that subscribed to something and are not closing.
    var subscribedCount: Int { clients.values.filter { !$0.channels.isEmpty && !$0.closing }.count }
}
