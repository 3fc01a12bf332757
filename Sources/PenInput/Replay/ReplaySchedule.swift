import PenKit

/// A trace replayed pass after pass through the tablet decoder, one step at a time, with every
/// time moved onto the run's clock. Pure: it never reads a clock or sleeps, so a paced driver
/// (penkitd's `TraceReplay`) and an unpaced one, or a fuzzer, share every time computation.
///
/// A step is one evdev event fed to its device's decoder, or one decoder timer (libinput's
/// forced proximity-out) firing at its own time, earliest first, before the next event; after
/// the last event, timers due within a second of it still fire. Times saturate: a trace stamped
/// near 2⁶⁴ µs is replayed, never trapped on, and a pass whose times would come within
/// `timeCeiling` of the clock's end is not started.
public struct ReplaySchedule {
    public typealias Entry = (time: UInt64, device: Int, event: EvdevEvent)

    /// What the next step is: its time on the run's clock, and whether it is a moment of the
    /// recording a paced driver waits for (a frame's SYN_REPORT, or a timer), not an event
    /// inside a frame, which follows its predecessor at once.
    public struct Next: Equatable, Sendable {
        public var time: UInt64
        public var paces: Bool
        public var isTimer: Bool
    }

    /// The latest time a pass is moved to (µs): 2⁴⁰ µs (12.7 days) below 2⁶⁴, room for every
    /// timeout the engine adds to an event's time.
    public static let timeCeiling: UInt64 = .max - (1 << 40)
    /// The quiet between two passes (µs).
    public static let quietBetweenPasses: UInt64 = 1_000_000

    private let merged: [Entry]
    private let freshDecoders: [TabletDecoder]
    private var decoders: [TabletDecoder]
    public let first: UInt64
    public let last: UInt64
    /// A pass and the quiet before the next.
    public let span: UInt64
    private var position = 0
    /// The run-clock time of the trace's first event in this pass.
    public private(set) var base: UInt64
    public private(set) var passes: UInt64 = 0

    /// Every device's events merged by time ((time, device, index) keeps the order stable), and
    /// the decoders, made once: a decoder reads the quirks files as it is made, which would cost
    /// a looping replay more than its frames; each pass starts from a copy in their first state.
    public init(trace: Trace, options: DecoderOptions, base: UInt64? = nil) throws {
        var merged: [Entry] = []
        merged.reserveCapacity(trace.devices.reduce(0) { $0 + $1.events.count })
        for (index, device) in trace.devices.enumerated() {
            for event in device.events { merged.append((event.time, index, event)) }
        }
        merged.sort { $0.time < $1.time }
        self.merged = merged
        freshDecoders = try trace.devices.map { try TabletDecoder(device: $0.description, options: options) }
        decoders = freshDecoders
        first = merged.first?.time ?? 0
        last = merged.last?.time ?? 0
        span = (last - first).saturatingAdd(Self.quietBetweenPasses)
        self.base = base ?? first
    }

    /// A trace time on the run's clock.
    public func onRunClock(_ time: UInt64) -> UInt64 { base.saturatingAdd(time >= first ? time - first : 0) }

    /// When this pass's quiet ends and the next may start (run clock).
    public var passEnd: UInt64 { base.saturatingAdd(span) }

    /// The next step, or nil at the end of the pass.
    public func next() -> Next? {
        if let timer = dueTimer() { return Next(time: onRunClock(timer.time), paces: true, isTimer: true) }
        guard position < merged.count else { return nil }
        let event = merged[position].event
        return Next(time: onRunClock(merged[position].time), paces: event.type == 0 && event.code == 0, isTimer: false)
    }

    /// The earliest decoder timer due before the next event (after the last event: within the
    /// quiet after it), with its decoder's index.
    private func dueTimer() -> (index: Int, time: UInt64)? {
        let limit = position < merged.count ? merged[position].time : last.saturatingAdd(Self.quietBetweenPasses)
        var due: (index: Int, time: UInt64)?
        for index in decoders.indices {
            if let deadline = decoders[index].nextTimerDeadline, deadline <= limit,
               deadline < due?.time ?? .max { due = (index, deadline) }
        }
        return due
    }

    /// The raw event the last `step` fed its decoder, on the run's clock (nil after a timer step):
    /// what penkitd's flight recorder keeps of a replay.
    public private(set) var lastFed: EvdevEvent?

    /// Takes the next step, appending what the decoder made of it with times on the run's clock;
    /// returns the index in the trace of the device they came from (nil at the pass's end).
    @discardableResult
    public mutating func step(into decoded: inout [TabletEvent]) -> Int? {
        lastFed = nil
        let start = decoded.count
        let device: Int
        if let due = dueTimer() {
            device = due.index
            decoders[due.index].advance(to: due.time, into: &decoded)
        } else {
            guard position < merged.count else { return nil }
            device = merged[position].device
            decoders[device].feed(merged[position].event, into: &decoded)
            var fed = merged[position].event
            fed.time = onRunClock(fed.time)
            lastFed = fed
            position += 1
        }
        for index in start..<decoded.count { decoded[index].time = onRunClock(decoded[index].time) }
        return device
    }

    /// Starts the next pass with its first event at `base` (run clock), from fresh decoders.
    /// Returns false, starting nothing, when the pass's times would come within `timeCeiling`.
    public mutating func startPass(at base: UInt64) -> Bool {
        let (end, overflow) = base.addingReportingOverflow(span)
        guard !overflow, end <= Self.timeCeiling else { return false }
        self.base = base
        decoders = freshDecoders
        position = 0
        passes += 1
        return true
    }

    /// Where an unpaced replay's next pass starts: a span after this one, so times keep increasing.
    public var nextUnpacedBase: UInt64 { passEnd }
}
