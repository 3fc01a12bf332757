import PenInput
import PenKit
import Synchronization

/// penkitd's flight recorder (docs/bug-reports.md): the last `seconds` of each tablet's evdev
/// events with their kernel times, the tablet's description, and the lines penkitd published,
/// kept in buffers allocated once per tablet, so that `penkit record` can turn a problem the
/// user just saw into a report that replays it. It holds pen positions, which can be
/// handwriting: only root, penkitd's own user and the socket's group may read it (`Hub`).
///
/// The input thread appends (one uncontended lock per event, no allocation); the socket thread
/// reads on a `record` request.
final class FlightRecorder: Sendable {
    /// Evdev events a tablet sends per second at most, as the event buffers are sized: a pen at
    /// 200 Hz sends some 1600 (x, y, pressure, distance, two tilts, serial, sync); 4000 covers a
    /// 400 Hz pen. Beyond that the buffer holds less than `seconds`.
    static let eventsPerSecond = 4_000
    /// Tablets remembered after they went away, newest first: a report may be about an unplug.
    static let departedKept = 16

    let seconds: Int
    /// Live input and a paced replay stamp events on CLOCK_MONOTONIC: the window ends now. An
    /// unpaced replay's times are the trace's: the window ends at the newest time recorded.
    private let paced: Bool
    private let latest = Atomic<UInt64>(0)
    private let state: Mutex<State>

    private struct State {
        var devices: [Int: DeviceLog] = [:]
        var departed: [Int] = []
        var messages: MessageRing
        /// Grabs taken before the input loop told the recorder of their device: the virtual
        /// tablet grabs as the pipeline adds a device, which comes first.
        var grabbedBeforeAdded: [Int: UInt64] = [:]
    }

    /// Bytes of published lines kept: 280 KB for each second of the window, a pen drawing without
    /// pause (the Intuos4 drag trace: 269 KB/s by `penkit replay --json`), up to 8 MiB, which a
    /// window of 30 s reaches. A shorter window keeps all its seconds in proportionally less
    /// (`flight-recorder = 10`: 2.8 MB); a longer one the newest lines that fit in 8 MiB.
    static func messageBytes(seconds: Int) -> Int { min(280_000 * max(seconds, 1), 8 << 20) }

    /// `seconds` > 0.
    init(seconds: Int, paced: Bool) {
        self.seconds = seconds
        self.paced = paced
        state = Mutex(State(messages: MessageRing(capacity: Self.messageBytes(seconds: seconds))))
    }

    /// A tablet came: its buffer is allocated now, not per event.
    func deviceAdded(_ info: DeviceInfo, description: DeviceDescription?) {
        var log = DeviceLog(info: info, description: description, capacity: seconds * Self.eventsPerSecond)
        state.withLock { state in
            log.grabbedSince = state.grabbedBeforeAdded.removeValue(forKey: info.id)
            state.devices[info.id] = log
        }
    }

    func deviceRemoved(_ id: Int) {
        state.withLock { state in
            state.departed.insert(id, at: 0)
            while state.departed.count > Self.departedKept { state.devices[state.departed.removeLast()] = nil }
        }
    }

    /// The virtual tablet took (or let go of) its grab on the device (`TabletGrabs`).
    func grabChanged(device: Int, grabbed: Bool) {
        let time = now()
        state.withLock { state in
            guard state.devices[device] != nil else {
                state.grabbedBeforeAdded[device] = grabbed ? time : nil
                return
            }
            if grabbed {
                state.devices[device]?.grabbedSince = time
            } else if state.devices[device]?.grabbedSince != nil {
                state.devices[device]?.grabbedSince = nil
                state.devices[device]?.lastReleased = time
            }
        }
    }

    func record(_ event: EvdevEvent, device: Int) {
        state.withLock { $0.devices[device]?.events.append(event) }
        if !paced { latest.max(event.time, ordering: .relaxed) }
    }

    /// Where a window asked for now ends.
    func now() -> UInt64 { paced ? MonotonicClock.now() : latest.load(ordering: .relaxed) }

    /// Every line of a published batch, stamped `time` (µs, CLOCK_MONOTONIC or the replay's clock).
    /// A long stroke in parts (`parted`) is kept as its whole line, the stroke as every client
    /// can have it (`penkit replay --check` compares strokes whole), written from its pieces.
    func recordLines(_ bytes: [UInt8], ranges: some Sequence<(range: Range<Int>, parted: PartedStroke?)>, time: UInt64) {
        bytes.withUnsafeBytes { all in
            state.withLock { state in
                for (range, parted) in ranges {
                    if let parted {
                        // Without the newline, which ends the last piece: the ring keeps the
                        // stated length. A stroke too long for the ring is not encoded for it.
                        state.messages.append(count: parted.wholeCount - 1, time: time) { write in
                            parted.forEachWholeLineGroup { pieces in for piece in pieces { write(piece) } }
                        }
                        continue
                    }
                    // Without the newline: the report holds each line as a JSON object.
                    let end = range.upperBound > range.lowerBound && all[range.upperBound - 1] == UInt8(ascii: "\n")
                        ? range.upperBound - 1 : range.upperBound
                    state.messages.append(UnsafeRawBufferPointer(rebasing: all[range.lowerBound..<end]), time: time)
                }
            }
        }
        if !paced { latest.max(time, ordering: .relaxed) }
    }

    /// What the recorder holds from `from` on, taken under its lock: each tablet's events, the
    /// lines published, and whether the window reaches back to when penkitd opened every tablet.
    struct Window {
        var devices: [(id: Int, info: DeviceInfo, description: DeviceDescription?, events: [EvdevEvent], grabbed: Bool)]
        var lines: [[UInt8]]
        var linesTooLong: Int
        var fromStart: Bool
    }

    func window(from: UInt64) -> Window {
        state.withLock { state in
            let devices = state.devices.keys.sorted().map { id in
                let log = state.devices[id]!
                return (id: id, info: log.info, description: log.description, events: log.events.events(since: from),
                        grabbed: log.grabbed(since: from))
            }
            let whole = state.devices.values.allSatisfy { $0.events.holdsEverything(since: from) }
            return Window(devices: devices, lines: state.messages.lines(since: from), linesTooLong: state.messages.tooLong,
                          fromStart: whole)
        }
    }

    /// What `penkit record` receives: the events and lines of the last `window` seconds before
    /// `now`, as the protocol's `recording…` lines (RecordingReport).
    func report(window: Int, now: UInt64, settings: [String: String]) -> [[UInt8]] {
        let span = UInt64(min(max(window, 1), seconds)) * 1_000_000
        let from = now > span ? now - span : 0
        return RecordingReport.lines(self.window(from: from), seconds: window, from: from, to: now, settings: settings)
    }
}
