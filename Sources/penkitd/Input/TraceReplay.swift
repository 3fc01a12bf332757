import Logging
import PenInput
import PenKit

/// A trace replayed through the tablet decoder as an input source. Each read feeds the decoder
/// up to the end of the next frame (a SYN_REPORT) or the next decoder timer (libinput's forced
/// proximity-out), and hands over what it decoded with times moved onto the run's clock.
///
/// Paced, a frame is read at its recorded offset from the pass's start on CLOCK_MONOTONIC, and a
/// read never sleeps past the input loop's deadline, so the loop's ticks and warm-ups fall
/// between frames as they do live, and a stop or a far time jump is never slept out. Unpaced,
/// each pass is a span later than the last on the trace's own clock, so times keep increasing.
struct TraceReplay: InputSource {
    typealias Step = (time: UInt64, device: Int, event: EvdevEvent)

    let isPaced: Bool
    private let path: String
    private let loops: Bool
    private let merged: [Step]
    private let freshDecoders: [TabletDecoder]
    private var decoders: [TabletDecoder]
    private let deviceIDs: [Int]
    private let first: UInt64
    private let last: UInt64
    /// A pass and a second of quiet before the next (`ReplaySource.validate` bounds last − first).
    private let span: UInt64
    private var position = 0
    /// The run-clock time of the trace's first event in this pass.
    private var base: UInt64
    private var passes: UInt64 = 0
    private var ended = false
    private var lastTime: UInt64 = 0
    private var decoded: [TabletEvent] = []
    private let probe: LatencyProbe?
    private let logger: Logger

    init(path: String, merged: [Step], decoders: [TabletDecoder], deviceIDs: [Int], paced: Bool, loops: Bool,
         probe: LatencyProbe?, logger: Logger) {
        self.path = path
        self.merged = merged
        freshDecoders = decoders
        self.decoders = decoders
        self.deviceIDs = deviceIDs
        isPaced = paced
        self.loops = loops
        self.probe = probe
        self.logger = logger
        first = merged.first?.time ?? 0
        last = merged.last?.time ?? 0
        span = (last - first) + 1_000_000
        base = paced ? MonotonicClock.now() : first
        ended = merged.isEmpty
    }

    var nextWakeUp: UInt64? { nil }

    /// The last event time handed over (µs, the run's clock).
    var lastEventTime: UInt64 { lastTime }

    mutating func read(until deadline: UInt64, into items: inout [InputItem]) throws -> UInt64? {
        guard !ended else { return nil }
        while true {
            guard let step = nextStep() else { return endPass(deadline: deadline, into: &items) }
            let when = base.saturatingAdd(ReplaySource.offset(step.time, from: first))
            // A frame's end and a timer are when things happen; the events inside a frame are fed as they come.
            let paces = isPaced && step.isFrameEnd
            if paces {
                if when > MonotonicClock.now() {
                    guard when <= deadline else {
                        MonotonicClock.sleep(until: deadline)
                        return MonotonicClock.now()
                    }
                    MonotonicClock.sleep(until: when)
                }
                if step.timer == nil { probe?.record(.inputWoke, sourceTime: when) }
            }
            decoded.removeAll(keepingCapacity: true)
            let device: Int
            if let timer = step.timer {
                device = timer
                decoders[timer].advance(to: step.time, into: &decoded)
            } else {
                device = merged[position].device
                decoders[device].feed(merged[position].event, into: &decoded)
                position += 1
            }
            if paces, step.timer == nil { probe?.record(.decoded, sourceTime: when) }
            for var event in decoded {
                event.time = base.saturatingAdd(ReplaySource.offset(event.time, from: first))
                lastTime = event.time
                items.append(.tool(event, device: deviceIDs[device]))
            }
            if paces { return MonotonicClock.now() }
            if !isPaced, !items.isEmpty { return lastTime }
        }
    }

    /// What comes next in trace time: a decoder's timer due before the next event (or, after the
    /// last event, within a second of it), earliest first, else the next event; nil at the pass's end.
    private func nextStep() -> (time: UInt64, timer: Int?, isFrameEnd: Bool)? {
        let limit = position < merged.count ? merged[position].time : last.saturatingAdd(1_000_000)
        var due: (time: UInt64, timer: Int?, isFrameEnd: Bool)?
        for index in decoders.indices {
            if let deadline = decoders[index].nextTimerDeadline, deadline <= limit,
               deadline < due?.time ?? UInt64.max { due = (deadline, index, true) }
        }
        if let due { return due }
        guard position < merged.count else { return nil }
        let event = merged[position].event
        return (merged[position].time, nil, event.type == 0 && event.code == 0)
    }

    /// The pass is over: the devices go away (the replay has ended), or after a second of quiet
    /// the next pass starts from fresh decoders.
    private mutating func endPass(deadline: UInt64, into items: inout [InputItem]) -> UInt64? {
        if isPaced, loops {
            let quietEnds = base.saturatingAdd(span)
            if MonotonicClock.now() < quietEnds {
                MonotonicClock.sleep(until: min(deadline, quietEnds))
                if MonotonicClock.now() < quietEnds { return MonotonicClock.now() }
            }
        }
        passes += 1
        let (offset, overflow) = passes.multipliedReportingOverflow(by: span)
        let nextBase = isPaced ? MonotonicClock.now() : first.saturatingAdd(overflow ? .max : offset)
        let fits = !overflow && nextBase <= ReplaySource.loopTimeCeiling - min(ReplaySource.loopTimeCeiling, span)
        guard loops, fits else {
            if loops {
                logger.warning("the replay stops looping: the next pass's event times would come within 2^40 µs of 2^64",
                               metadata: ["trace": "\(path)", "passes": "\(passes)"])
            }
            items.append(.ended(time: lastTime))
            ended = true
            return isPaced ? MonotonicClock.now() : lastTime
        }
        base = nextBase
        decoders = freshDecoders
        position = 0
        return isPaced ? MonotonicClock.now() : lastTime
    }
}
