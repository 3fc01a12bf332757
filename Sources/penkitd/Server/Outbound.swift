import PenKit

/// One message on its way to clients: its JSON line (newline included), the
/// channel that carries it, and for a finalized stroke its sequence number.
struct Outbound: Sendable {
    var channel: ChannelSet
    var line: [UInt8]
    /// Sequence number of a `stroke` message; 0 for everything else.
    var seq: UInt64
    /// A live frame's sample time (µs, CLOCK_MONOTONIC for live input), for the latency probe; 0 otherwise.
    var sourceTime: UInt64
    /// The same frame encoded for clients that asked for another prediction horizon; `line` is
    /// the default horizon's. Empty for everything else (an empty array allocates nothing).
    var alternates: [Alternate] = []

    struct Alternate: Sendable {
        var request: PredictionRequest
        var line: [UInt8]
    }

    init(_ channel: ChannelSet, _ message: some WireMessage, seq: UInt64 = 0, sourceTime: UInt64 = 0) {
        self.channel = channel
        self.sourceTime = sourceTime
        var writer = JSONWriter(capacity: 512)
        writer.line(message)
        self.line = writer.bytes
        self.seq = seq
    }

    /// Live messages may be dropped for a client that cannot keep up; the others are queued.
    var isLive: Bool { !channel.isDisjoint(with: [.frames, .updates, .buttons]) }
}
