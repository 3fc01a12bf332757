import PenKit

/// A trace replayed pass after pass through the tablet decoder, one step at a time, with every
/// time moved onto the run's clock. Pure: it never reads a clock or sleeps, so a paced driver
/// (penkitd's `TraceReplaySource`) and an unpaced one, or a fuzzer, share every time computation.
///
/// A step is one evdev event fed to its device's decoder, or one decoder timer (libinput's
/// forced proximity-out) firing at its own time, earliest first, before the next event; after
/// the last event, timers due within a second of it still fire. Times saturate: a trace stamped
/// near 2⁶⁴ µs is replayed, never trapped on, and a pass whose times would come within
/// `timeCeiling` of the clock's end is not started.
package struct ReplaySchedule {
    /// What the next step is: its time on the run's clock, and whether it is a moment of the
    /// recording a paced driver waits for (a frame's SYN_REPORT, or a timer), not an event
    /// inside a frame, which follows its predecessor at once.
    package struct Next: Equatable, Sendable {
        package var time: UInt64
        package var paces: Bool
        package var isTimer: Bool
    }

    /// The latest time a pass is moved to (µs): 2⁴⁰ µs (12.7 days) below 2⁶⁴, room for every
    /// timeout the engine adds to an event's time.
    package static let timeCeiling: UInt64 = .max - (1 << 40)
    /// The quiet between two passes (µs).
    package static let quietBetweenPasses: UInt64 = 1_000_000

    /// Each device's events, sorted by time (stably), read through one cursor per device: the
    /// merge by time happens as the replay steps, so a long recording is held once, as the trace
    /// read it, not copied into a merged list of 32-byte entries (`bench rss`'s 600 s stroke: 27 MB more).
    private let events: [[EvdevEvent]]
    private var cursors: [Int]
    /// The device whose next event comes first (ties: the lower index, as a stable sort of the
    /// devices' events in order would put it); nil when every device's events are all fed.
    private var head: Int?
    private let freshDecoders: [TabletDecoder]
    private var decoders: [TabletDecoder]
    package let first: UInt64
    package let last: UInt64
    /// A pass and the quiet before the next.
    package let span: UInt64
    /// The run-clock time of the trace's first event in this pass.
    package private(set) var base: UInt64
    package private(set) var passes: UInt64 = 0

    /// Every device's events in time order (a stable sort, only where a trace's times go back),
    /// merged as the replay steps, and the decoders, made once: a decoder reads the quirks files as
    /// it is made, which would cost a looping replay more than its frames; each pass starts from a
    /// copy in their first state.
    package init(trace: Trace, options: DecoderOptions, base: UInt64? = nil) throws {
        events = trace.devices.map { device in
            var events = device.events
            if zip(events, events.dropFirst()).contains(where: { $0.time > $1.time }) { events.sort { $0.time < $1.time } }
            return events
        }
        cursors = Array(repeating: 0, count: events.count)
        freshDecoders = try trace.devices.map { try TabletDecoder(device: $0.description, options: options) }
        decoders = freshDecoders
        first = events.compactMap { $0.first?.time }.min() ?? 0
        last = events.compactMap { $0.last?.time }.max() ?? 0
        span = (last - first).saturatingAdd(Self.quietBetweenPasses)
        self.base = base ?? first
        head = nextHead()
    }

    /// A trace time on the run's clock.
    package func onRunClock(_ time: UInt64) -> UInt64 { base.saturatingAdd(time >= first ? time - first : 0) }

    /// When this pass's quiet ends and the next may start (run clock).
    package var passEnd: UInt64 { base.saturatingAdd(span) }

    /// The next step, or nil at the end of the pass.
    package func next() -> Next? {
        if let timer = dueTimer() { return Next(time: onRunClock(timer.time), paces: true, isTimer: true) }
        guard let head else { return nil }
        let event = events[head][cursors[head]]
        return Next(time: onRunClock(event.time), paces: event.type == 0 && event.code == 0, isTimer: false)
    }

    /// The earliest decoder timer due before the next event (after the last event: within the
    /// quiet after it), with its decoder's index.
    private func dueTimer() -> (index: Int, time: UInt64)? {
        let limit = head.map { events[$0][cursors[$0]].time } ?? last.saturatingAdd(Self.quietBetweenPasses)
        var due: (index: Int, time: UInt64)?
        for index in decoders.indices {
            if let deadline = decoders[index].nextTimerDeadline, deadline <= limit,
               deadline < due?.time ?? .max { due = (index, deadline) }
        }
        return due
    }

    /// The raw event the last `step` fed its decoder, on the run's clock (nil after a timer step):
    /// what penkitd's flight recorder keeps of a replay.
    package private(set) var lastFed: EvdevEvent?

    /// Takes the next step, appending what the decoder made of it with times on the run's clock;
    /// returns the index in the trace of the device they came from (nil at the pass's end).
    @discardableResult
    package mutating func step(into decoded: inout [TabletEvent]) -> Int? {
        lastFed = nil
        let start = decoded.count
        let device: Int
        if let due = dueTimer() {
            device = due.index
            decoders[due.index].advance(to: due.time, into: &decoded)
        } else {
            guard let next = head else { return nil }
            device = next
            let event = events[device][cursors[device]]
            decoders[device].feed(event, into: &decoded)
            var fed = event
            fed.time = onRunClock(fed.time)
            lastFed = fed
            cursors[device] += 1
            head = nextHead()
        }
        for index in start..<decoded.count { decoded[index].time = onRunClock(decoded[index].time) }
        return device
    }

    /// Starts the next pass with its first event at `base` (run clock), from fresh decoders.
    /// Returns false, starting nothing, when the pass's times would come within `timeCeiling`.
    package mutating func startPass(at base: UInt64) -> Bool {
        let (end, overflow) = base.addingReportingOverflow(span)
        guard !overflow, end <= Self.timeCeiling else { return false }
        self.base = base
        decoders = freshDecoders
        cursors = Array(repeating: 0, count: events.count)
        head = nextHead()
        passes += 1
        return true
    }

    /// The device whose next event is earliest, the lower index first among equal times.
    private func nextHead() -> Int? {
        var best: Int?
        for device in events.indices where cursors[device] < events[device].count {
            if let b = best, events[b][cursors[b]].time <= events[device][cursors[device]].time { continue }
            best = device
        }
        return best
    }

    /// Where an unpaced replay's next pass starts: a span after this one, so times keep increasing.
    package var nextUnpacedBase: UInt64 { passEnd }
}
