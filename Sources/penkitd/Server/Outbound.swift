import PenKit

/// One message on its way to clients: where its line (newline included) lies in
/// its batch's bytes, the channel that carries it, and for a finalized stroke
/// its sequence number.
struct Outbound: Sendable {
    var channel: ChannelSet
    var range: Range<Int>
    /// Sequence number of a `stroke` message; 0 for everything else.
    var seq: UInt64
    /// A live frame's sample time (µs, CLOCK_MONOTONIC for live input), for the latency probe; 0 otherwise.
    var sourceTime: UInt64

    /// Live messages may be dropped for a client that cannot keep up; the others are queued.
    var isLive: Bool { !channel.isDisjoint(with: [.frames, .updates, .buttons]) }
}

/// The messages one input event (or timer tick) produced, each encoded once,
/// back to back in one reusable buffer: what every client's socket gets.
struct OutboundBatch: Sendable {
    private(set) var writer = JSONWriter(capacity: 64 << 10)
    private(set) var messages: [Outbound] = []

    init() { messages.reserveCapacity(16) }

    var isEmpty: Bool { messages.isEmpty }
    var bytes: [UInt8] { writer.bytes }

    mutating func append(_ channel: ChannelSet, _ message: some WireMessage, seq: UInt64 = 0, sourceTime: UInt64 = 0) {
        let start = writer.count
        writer.line(message)
        messages.append(Outbound(channel: channel, range: start..<writer.count, seq: seq, sourceTime: sourceTime))
    }

    /// Empties the batch, keeping its storage.
    mutating func removeAll() {
        writer.removeAll()
        messages.removeAll(keepingCapacity: true)
    }
}
