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
    /// A `pressure-source` line's device: the hub keeps the latest for clients that subscribe
    /// to `devices` later (0 for every other line).
    var sourceStateOf: Int = 0
    /// The same frame encoded for clients that asked for another prediction horizon; `range` is
    /// the default horizon's. Empty for everything else (an empty array allocates nothing).
    var alternates: [Alternate] = []
    /// A long stroke in parts (`range` then holds its closing line, for clients that take parts);
    /// nil for every other message, a short stroke included.
    var parted: PartedStroke?

    struct Alternate: Sendable {
        var request: PredictionRequest
        var range: Range<Int>
    }

    /// Where this client's line lies: its horizon's encoding if the input thread made one, else
    /// the default (a request newer than the frame falls back to the default once).
    func range(for prediction: PredictionRequest) -> Range<Int> {
        guard prediction != .standard else { return range }
        for alternate in alternates where alternate.request == prediction { return alternate.range }
        return range
    }

    /// Live messages may be dropped for a client that cannot keep up; the others are queued.
    var isLive: Bool { !channel.isDisjoint(with: Self.liveChannels) }
    static let liveChannels: ChannelSet = [.frames, .updates, .buttons]
}

/// The messages one input event (or timer tick) produced, each encoded once,
/// back to back in one reusable buffer: what every client's socket gets.
struct OutboundBatch: Sendable {
    private(set) var writer = JSONWriter(capacity: OutboundBatch.initialBytes)
    private(set) var messages: [Outbound] = []
    /// The pipeline stopped before a finalized stroke (`MessagePipeline`): the input loop publishes
    /// this batch, then lets the pipeline resume into an empty one.
    var boundary = false

    init() { messages.reserveCapacity(16) }

    var isEmpty: Bool { messages.isEmpty }
    var bytes: [UInt8] { writer.bytes }

    mutating func append(_ channel: ChannelSet, _ message: some WireMessage, seq: UInt64 = 0, sourceTime: UInt64 = 0,
                         sourceStateOf: Int = 0) {
        let start = writer.count
        writer.line(message)
        messages.append(Outbound(channel: channel, range: start..<writer.count, seq: seq, sourceTime: sourceTime,
                                 sourceStateOf: sourceStateOf))
    }

    /// A finalized stroke: one line as ever when it is short, else in parts of at most
    /// `pointsPerPart` points (`PartedStroke`), encoded from its slices, never whole.
    mutating func append(stroke message: FinalizedStroke, pointsPerPart: Int) {
        guard let parted = PartedStroke.encode(message, pointsPerPart: pointsPerPart) else {
            append(.strokes, EngineMessage.stroke(message), seq: message.seq)
            return
        }
        let start = writer.count
        parted.head.withUnsafeBytes { writer.append($0) }
        messages.append(Outbound(channel: .strokes, range: start..<writer.count, seq: message.seq, sourceTime: 0, parted: parted))
    }

    /// Adds the encoding of the message at `index` for clients that asked for `request`'s horizon.
    mutating func appendAlternate(_ message: some WireMessage, for request: PredictionRequest, at index: Int) {
        let start = writer.count
        writer.line(message)
        messages[index].alternates.append(Outbound.Alternate(request: request, range: start..<writer.count))
    }

    /// Empties the batch, keeping its storage unless a long stroke grew it past `keptBytes`.
    mutating func removeAll() {
        if writer.bytes.capacity > Self.keptBytes { writer = JSONWriter(capacity: Self.initialBytes) } else { writer.removeAll() }
        messages.removeAll(keepingCapacity: true)
        boundary = false
    }

    static let initialBytes = 64 << 10
    /// The most storage a batch keeps between publishes: a long stroke's line (tens of MiB) is not held for the next batch.
    static let keptBytes = 1 << 20
}
