import CLinuxCalls
import Glibc
import Logging
import PenInput
import PenKit

/// A trace replayed as an input source: a `ReplaySchedule`, paced or not. Each read takes the
/// schedule's steps up to the end of the next frame (a SYN_REPORT) or the next decoder timer,
/// and hands over what the decoder made of them.
///
/// Paced, a frame is read at its recorded offset from the pass's start on CLOCK_MONOTONIC, and a
/// read never sleeps past the input loop's deadline, so the loop's ticks and warm-ups fall
/// between frames as they do live, and a stop or a far time jump is never slept out. Unpaced,
/// each pass is a span later than the last on the trace's own clock, so times keep increasing.
struct TraceReplaySource: InputSource {
    let isPaced: Bool
    private let path: String
    private let loops: Bool
    private var schedule: ReplaySchedule
    private let deviceIDs: [Int]
    private var ended = false
    private var lastTime: UInt64 = 0
    private var decoded: [TabletEvent] = []
    private let probe: LatencyProbe?
    private let logger: Logger
    /// Wakes a paced replay's waits when a pressure source's reading arrives, as it wakes live
    /// input's poll: the reading's update goes out at once, not at the next frame.
    private let pressure: ControlQueue?
    private var wakeup: [pollfd]
    /// Keeps each raw event fed to the decoder (docs/bug-reports.md); nil when it is off.
    private let recorder: FlightRecorder?

    /// `replay` says which trace, whether paced and whether it loops.
    init(_ replay: ReplayPlan, schedule: ReplaySchedule, deviceIDs: [Int], pressure: ControlQueue?,
         recorder: FlightRecorder? = nil, logger: Logger) {
        self.pressure = pressure
        self.recorder = recorder
        wakeup = [pollfd(fd: pressure?.wakeup ?? -1, events: Int16(POLLIN), revents: 0)]
        path = replay.path
        self.schedule = schedule
        self.deviceIDs = deviceIDs
        isPaced = replay.realtime
        loops = replay.loop
        probe = replay.probe
        self.logger = logger
        decoded.reserveCapacity(16)
    }

    var nextWakeUp: UInt64? { nil }

    mutating func read(until deadline: UInt64, into items: inout [InputItem]) throws -> UInt64? {
        guard !ended else { return nil }
        while true {
            guard let next = schedule.next() else { return endPass(deadline: deadline, into: &items) }
            // A frame's end and a timer are when things happen; the events inside a frame are fed as they come.
            let paces = isPaced && next.paces
            if paces {
                if next.time > MonotonicClock.now() {
                    guard next.time <= deadline, wait(until: next.time) else {
                        if next.time > deadline { _ = wait(until: deadline) }
                        return MonotonicClock.now()
                    }
                }
                if !next.isTimer { probe?.record(.inputWoke, sourceTime: next.time) }
            }
            decoded.removeAll(keepingCapacity: true)
            guard let device = schedule.step(into: &decoded) else { continue }
            if let recorder, let fed = schedule.lastFed { recorder.record(fed, device: deviceIDs[device]) }
            if paces, !next.isTimer { probe?.record(.decoded, sourceTime: next.time) }
            for event in decoded {
                lastTime = event.time
                items.append(.tool(event, device: deviceIDs[device]))
            }
            if paces { return MonotonicClock.now() }
            if !isPaced, !items.isEmpty { return lastTime }
        }
    }

    /// The pass is over: the replay has ended, or after a second of quiet the next pass starts.
    private mutating func endPass(deadline: UInt64, into items: inout [InputItem]) -> UInt64? {
        if loops, isPaced, MonotonicClock.now() < schedule.passEnd {
            _ = wait(until: min(deadline, schedule.passEnd))
            if MonotonicClock.now() < schedule.passEnd { return MonotonicClock.now() }
        }
        if loops, schedule.startPass(at: isPaced ? MonotonicClock.now() : schedule.nextUnpacedBase) {
            return isPaced ? MonotonicClock.now() : lastTime
        }
        if loops {
            logger.warning("the replay stops looping: the next pass's event times would come within 2^40 µs of 2^64",
                           metadata: ["trace": "\(path)", "passes": "\(schedule.passes + 1)"])
        }
        items.append(.ended(time: lastTime))
        ended = true
        return isPaced ? MonotonicClock.now() : lastTime
    }

    /// Waits until `time` (CLOCK_MONOTONIC µs); false when a pressure reading came first.
    private mutating func wait(until time: UInt64) -> Bool {
        guard pressure != nil else {
            MonotonicClock.sleep(until: time)
            return true
        }
        while true {
            let now = MonotonicClock.now()
            guard now < time else { return true }
            if penkit_poll_microseconds(&wakeup, 1, time - now) > 0, wakeup[0].revents != 0 {
                pressure?.acknowledgeWakeup()
                return false
            }
        }
    }
}
