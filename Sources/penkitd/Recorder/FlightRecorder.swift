import PenEngine
import PenInput
import PenKit
import Synchronization

/// penkitd's flight recorder (docs/bug-reports.md): the last `seconds` of each tablet's evdev
/// events with their kernel times, the tablet's description, and a digest of each engine line
/// penkitd published (`LineDigest`: a replay of the events makes the lines again), and what
/// penkitd knew of each tablet's tools (`ToolLedger`), so that `penkit record` can turn a problem
/// the user just saw into a report that replays it. It holds pen positions, which can be
/// handwriting: only root, penkitd's own user and the socket's group may read it (`Hub`).
///
/// The input thread appends (one uncontended lock per event; no allocation once the rings have
/// held a window's worth: `StampedRing`); the socket thread reads on a `record` request. The
/// rings hold what came in the last `seconds`, so their memory follows the tablets' real rate
/// (the Cintiq trace's 350 events a second: 0.3 MB a minute), bounded by the rates below.
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
        var digests: DigestRing
        /// Grabs taken before the input loop told the recorder of their device: the virtual
        /// tablet grabs as the pipeline adds a device, which comes first.
        var grabbedBeforeAdded: [Int: UInt64] = [:]

        /// Changes a device's log in place, through the dictionary's values: `devices[id]?.…`
        /// copied the whole DeviceLog out and back (for every event, its retains and releases
        /// were a tenth of the input thread's time in an unpaced replay). False: no such device.
        @discardableResult
        mutating func updateDevice(_ id: Int, _ change: (inout DeviceLog) -> Void) -> Bool {
            guard let index = devices.index(forKey: id) else { return false }
            change(&devices.values[index])
            return true
        }
    }

    /// Engine lines a second at most, as the digest buffer is sized: a pen drawing without pause
    /// sends a frame per report and an update per estimated sample (the Intuos4 drag trace, at
    /// 200 Hz: 2 lines a report at most); 1000 covers a 400 Hz pen's. 40 bytes each: 2.4 MB at
    /// most for the default 60 s, against the 8 MiB that the lines themselves took.
    static let linesPerSecond = 1_000

    /// `seconds` > 0.
    init(seconds: Int, paced: Bool) {
        self.seconds = seconds
        self.paced = paced
        state = Mutex(State(digests: DigestRing(capacity: seconds * Self.linesPerSecond, span: UInt64(seconds) * 1_000_000)))
    }

    /// A tablet came: its buffer is allocated now, not per event.
    func deviceAdded(_ info: DeviceInfo, description: DeviceDescription?) {
        var log = DeviceLog(info: info, description: description, capacity: seconds * Self.eventsPerSecond,
                            span: UInt64(seconds) * 1_000_000)
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
            let known = state.updateDevice(device) { log in
                if grabbed {
                    log.grabbedSince = time
                } else if log.grabbedSince != nil {
                    log.grabbedSince = nil
                    log.lastReleased = time
                }
            }
            if !known { state.grabbedBeforeAdded[device] = grabbed ? time : nil }
        }
    }

    /// A tool came into proximity on `device`: its first time is kept (`ToolLedger`).
    func toolProximityIn(_ tool: ToolIdentity, device: Int, at time: UInt64) {
        state.withLock { $0.updateDevice(device) { $0.tools.proximityIn(tool, at: time) } }
    }

    /// libinput ended a proximity at `time`, the event before it being of `after` (`ToolLedger`).
    func proximityOut(device: Int, at time: UInt64, after: UInt64) {
        state.withLock { $0.updateDevice(device) { $0.tools.proximityOut(at: time, after: after) } }
    }

    /// The engine learned (or unlearned) at `time` that a tool sends no tilt (`ToolLedger`).
    func tiltLearned(_ key: ToolKey, withoutTilt: Bool, at time: UInt64) {
        state.withLock { $0.updateDevice(Int(key.device)) { $0.tools.tiltLearned(key.tool, withoutTilt: withoutTilt, at: time) } }
    }

    func record(_ event: EvdevEvent, device: Int) {
        state.withLock { $0.updateDevice(device) { $0.events.append(event) } }
        if !paced { latest.max(event.time, ordering: .relaxed) }
    }

    /// Where a window asked for now ends.
    func now() -> UInt64 { paced ? MonotonicClock.now() : latest.load(ordering: .relaxed) }

    /// A digest of every engine line of a published batch, each stamped with the time of the
    /// event it came from: a frame's own (`sourceTime`), another line the next frame's of its batch
    /// (a `began` comes just before its stroke's first frame), else `time` (the batch's: µs,
    /// CLOCK_MONOTONIC or the replay's clock). An unpaced replay publishes many events in one batch:
    /// the check starts its window by these times. Other lines (devices, pads, status) are not
    /// kept. A long stroke in parts (`parted`) is digested as its whole line, the stroke as every
    /// client can have it, from its pieces. Digests are made outside the lock.
    func recordLines<Lines: Collection<(range: Range<Int>, parted: PartedStroke?, sourceTime: UInt64)>>(
        _ bytes: [UInt8], lines: Lines, time: UInt64) {
        bytes.withUnsafeBytes { all in
            var index = lines.startIndex
            while index != lines.endIndex {
                let (range, parted, sourceTime) = lines[index]
                lines.formIndex(after: &index)
                let digest: LineDigest?
                if let parted {
                    digest = Self.digest(of: parted)
                } else {
                    digest = LineDigest.of(UnsafeRawBufferPointer(rebasing: all[range]))
                }
                guard let digest else { continue }
                var stamp = sourceTime
                if stamp == 0 {
                    stamp = time
                    var next = index
                    while next != lines.endIndex {
                        if lines[next].sourceTime > 0 {
                            stamp = lines[next].sourceTime
                            break
                        }
                        lines.formIndex(after: &next)
                    }
                }
                state.withLock { $0.digests.append(digest, time: stamp) }
            }
        }
        if !paced { latest.max(time, ordering: .relaxed) }
    }

    /// A long stroke's digest, made from its pieces as `LineDigest.of` makes it of the whole line.
    private static func digest(of parted: PartedStroke) -> LineDigest {
        var hasher = LineDigest.Hasher()
        var seq: UInt64 = 0
        var first = true
        var remaining = parted.wholeCount - 1
        parted.forEachWholeLineGroup { pieces in
            for piece in pieces {
                if first {
                    seq = LineDigest.leadingNumber(piece, kind: .stroke)
                    first = false
                }
                // Without the newline, which ends the last piece.
                let taken = min(piece.count, remaining)
                guard taken > 0 else { continue }
                hasher.feed(UnsafeRawBufferPointer(rebasing: piece[0..<taken]))
                remaining -= taken
            }
        }
        let digest = hasher.finish()
        return LineDigest(kind: .stroke, inStroke: false, full: digest, core: digest, number: seq)
    }

    /// What the recorder holds from `from` on, taken under its lock: each tablet's events, the
    /// digests of the lines published, and whether the window reaches back to when penkitd opened every tablet.
    struct Window {
        var devices: [(id: Int, info: DeviceInfo, description: DeviceDescription?, events: [EvdevEvent], grabbed: Bool,
                       tools: ToolLedger)]
        var digests: [DigestRing.Entry]
        var fromStart: Bool
    }

    func window(from: UInt64) -> Window {
        state.withLock { state in
            let devices = state.devices.keys.sorted().map { id in
                let log = state.devices[id]!
                return (id: id, info: log.info, description: log.description, events: log.events.events(since: from),
                        grabbed: log.grabbed(since: from), tools: log.tools)
            }
            let whole = state.devices.values.allSatisfy { $0.events.holdsEverything(since: from) }
            return Window(devices: devices, digests: state.digests.entries(since: from), fromStart: whole)
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
