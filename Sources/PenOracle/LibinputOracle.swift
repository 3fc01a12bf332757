import Glibc
import PenInput
import PenInputLinux
import PenKit

/// Replays a trace through the real kernel (uinput) and real libinput, and records what
/// libinput reports, with times rebased to the trace's own clock. This produces the
/// fixtures the Swift decoder is compared against. Needs /dev/uinput and a running udev.
package enum LibinputOracle {
    /// One libinput configuration to observe the replay with (each gets its own context).
    package struct Variant: Sendable {
        package var name: String
        /// A quirks directory to use instead of the system's (e.g. one turning smoothing off).
        package var quirksDirectory: String?
        package init(name: String, quirksDirectory: String? = nil) {
            self.name = name
            self.quirksDirectory = quirksDirectory
        }
    }

    package struct VariantResult: Sendable {
        package var variant: Variant
        /// libinput accepted the device (DEVICE_ADDED); false when it ignored it.
        package var deviceAdded: Bool
        package var device: LibinputDeviceInfo?
        /// Tablet-tool events, times on the trace's clock.
        package var events: [TabletEvent]
        /// Other libinput event types seen on the device (pad, pointer, ...), by type number.
        package var otherEvents: [UInt32: Int]
        /// libinput's log (info and above) while this context was open.
        package var log: [String]
        /// For events libinput made from a timer (not at a frame's kernel time): their
        /// distance from the last frame before them (µs).
        package var timerEventOffsets: [UInt64]
    }

    package struct Result: Sendable {
        package var variants: [VariantResult]
        package var traceFrames: Int
        package var deliveredFrames: Int
        /// Per delivered frame: kernel offset minus trace offset from the first frame (µs).
        package var timingErrors: [Int64]
        /// From creating the uinput device to libinput having added it (µs).
        package var readiness: UInt64
        /// Why this run may differ from what libinput does on real hardware (see
        /// ForcedProximityCheck); empty when it is faithful.
        package var problems: [String]
        /// How many runs it took to get a faithful one (or the last, unfaithful, run).
        package var attempts: Int = 1
    }

    package struct Options: Sendable {
        /// How long to keep reading after the last frame, for libinput's timers (the 50 ms
        /// forced proximity-out) to fire.
        package var settle: UInt64 = 500_000
        package var udevTimeout: UInt64 = 60_000_000
        /// Runs to try until one is faithful.
        package var attempts = 3
        package init() {}
    }

    /// Runs the trace until a run is faithful, at most `options.attempts` times.
    package static func runChecked(trace: Trace, variants: [Variant], options: Options = .init(),
                                  onRetry: (Int, [String]) -> Void = { _, _ in }) throws -> Result {
        var attempt = 1
        while true {
            var result = try run(trace: trace, variants: variants, options: options)
            result.attempts = attempt
            if result.problems.isEmpty || attempt >= options.attempts { return result }
            onRetry(attempt, result.problems)
            attempt += 1
        }
    }

    package static func run(trace: Trace, variants: [Variant], options: Options = .init()) throws -> Result {
        guard trace.devices.count == 1, let traceDevice = trace.devices.first else {
            throw UinputError("the oracle replays traces of exactly one device; this one has \(trace.devices.count)")
        }
        let created = MonotonicClock.now()
        let player = try UinputPlayer(description: traceDevice.description, events: traceDevice.events)
        let device = player.device
        guard UdevDevices.waitUntilInitialized(syspath: device.syspath, timeoutMicroseconds: options.udevTimeout) else {
            throw UinputError("udev did not process \(device.devnode) within \(options.udevTimeout / 1_000_000) s: is systemd-udevd running?")
        }

        let observers = try variants.map { try Observer(variant: $0, devnode: device.devnode) }
        let readiness = MonotonicClock.now() - created
        let raw = try RawEvdevReader(devnode: device.devnode)
        // libinput has read the device's original fuzz by now: stop the kernel filtering
        // the recorded (already filtered) values a second time.
        try device.zeroKernelFuzz()

        let quiet = SystemQuiescence.waitUntilIdle()
        RealtimeScheduling.raiseCurrentThread(priority: 10)
        let replay = try ReplayThread(player: player, startingAt: MonotonicClock.now() + 100_000)
        try replay.launch()
        var settleUntil: UInt64?
        var dispatchTimes: [UInt64] = []
        var pollSet = observers.map { pollfd(fd: $0.context.fileDescriptor, events: Int16(POLLIN), revents: 0) }
        pollSet.append(pollfd(fd: raw.fd, events: Int16(POLLIN), revents: 0))
        pollSet.append(pollfd(fd: replay.doneFD, events: Int16(POLLIN), revents: 0))
        while true {
            _ = poll(&pollSet, nfds_t(pollSet.count), 5)
            raw.readAvailable()
            let before = MonotonicClock.now()
            for observer in observers { try observer.pump() }
            dispatchTimes.append(before)
            let now = MonotonicClock.now()
            if settleUntil == nil, pollSet[pollSet.count - 1].revents != 0 {
                settleUntil = now + options.settle
                pollSet[pollSet.count - 1].events = 0
            }
            if let settleUntil, now >= settleUntil { break }
        }
        _ = try replay.join()

        let map: ReplayTimeMap
        do {
            map = try ReplayTimeMap(device: traceDevice.description, traceFrames: player.frames, delivered: raw.frames)
        } catch {
            // Frames lost (a reader too slow: SYN_DROPPED) or altered: this run says nothing.
            let dropped = raw.droppedReports > 0 ? " (\(raw.droppedReports) SYN_DROPPED: a reader fell behind)" : ""
            let results = observers.map { $0.result(map: nil, frameKernelTimes: []) }
            return Result(variants: results, traceFrames: player.frames.count, deliveredFrames: raw.frames.count,
                          timingErrors: [], readiness: readiness, problems: ["\(error)\(dropped)" + (quiet ? "" : " (the system never went idle before the replay)")])
        }
        let frameTimes = Set(map.pairs.map(\.kernel))
        let results = observers.map { $0.result(map: map, frameKernelTimes: frameTimes) }
        var problems: [String] = []
        for observer in observers {
            let timerTimes = observer.events.map(\.time).filter { !frameTimes.contains($0) }
            let armed = ForcedProximityCheck.armedGaps(delivered: raw.frames, events: observer.events)
            problems += ForcedProximityCheck.problems(map: map, timerEventKernelTimes: timerTimes,
                                                      dispatchTimes: dispatchTimes, armed: armed)
            // libinput resynchronises after SYN_DROPPED, which real hardware read in time never causes.
            if observer.logBox.lines.contains(where: { $0.contains("SYN_DROPPED") }) {
                problems.append("libinput lost events (SYN_DROPPED): it was read too late")
            }
        }
        return Result(variants: results, traceFrames: player.frames.count, deliveredFrames: raw.frames.count,
                      timingErrors: map.timingErrors, readiness: readiness, problems: Array(Set(problems)).sorted())
    }
}

/// One libinput context watching the replayed device. A class: it is appended to on every
/// dispatch, and copying value-type arrays there would cost the guest real time.
private final class Observer {
    let variant: LibinputOracle.Variant
    let context: LibinputContext
    let logBox: LogBox
    let device: LibinputDeviceInfo?
    var added = false
    var events: [TabletEvent] = []
    var other: [UInt32: Int] = [:]

    final class LogBox { var lines: [String] = [] }

    init(variant: LibinputOracle.Variant, devnode: String) throws {
        self.variant = variant
        let box = LogBox()
        logBox = box
        context = try LibinputContext(quirksDirectory: variant.quirksDirectory, logPriority: .info) { priority, message in
            box.lines.append("\(priority): \(message)")
        }
        device = context.addDevice(path: devnode)
        try pump()
    }

    func pump() throws {
        try context.dispatch()
        let sysname = device?.sysname
        context.drainEvents { event in
            switch event {
            case .deviceAdded(let info) where info.sysname == sysname: added = true
            case .tabletTool(let e, let info) where info.sysname == sysname: events.append(e)
            case .other(let type, let info) where info.sysname == sysname: other[type, default: 0] += 1
            case .tabletPad(let e, let info) where info.sysname == sysname: other[e.libinputEventType, default: 0] += 1
            default: break
            }
        }
    }

    func result(map: ReplayTimeMap?, frameKernelTimes: Set<UInt64>) -> LibinputOracle.VariantResult {
        var timerOffsets: [UInt64] = []
        guard let map else {
            return LibinputOracle.VariantResult(variant: variant, deviceAdded: added, device: device, events: [],
                                                otherEvents: other, log: logBox.lines, timerEventOffsets: [])
        }
        let rebased = events.map { event -> TabletEvent in
            var e = event
            if !frameKernelTimes.contains(event.time) {
                let before = map.pairs.last { $0.kernel <= event.time }?.kernel ?? event.time
                timerOffsets.append(event.time - before)
            }
            e.time = map.traceTime(ofKernelTime: event.time)
            return e
        }
        return LibinputOracle.VariantResult(variant: variant, deviceAdded: added, device: device, events: rebased,
                                            otherEvents: other, log: logBox.lines, timerEventOffsets: timerOffsets)
    }
}
