import Logging
import PenInput
import PenKit
import Glibc
import Synchronization

/// Feeds a recorded trace through the tablet decoder, on its own thread, as if
/// it were live input. With `realtime`, frames go out at their recorded pace and
/// their times are moved onto CLOCK_MONOTONIC, as libinput's would be.
final class ReplaySource: Sendable {
    let path: String
    let realtime: Bool
    let loop: Bool
    let options: DecoderOptions
    let probe: LatencyProbe?
    private let stopRequested = Atomic<Bool>(false)
    /// The trace as read by `validate`: a FIFO or process substitution can be read only once.
    private let loaded = Mutex<Trace?>(nil)
    /// The longest span of event times replayed (about 8.9 years): beyond it, times moved onto
    /// the run's clock could overflow; such a trace is refused with a clear error instead.
    static let maxSpan: UInt64 = 1 << 48
    /// How often a paced replay lets the engine's timeouts fire between events (µs), as LiveSource's poll.
    static let engineTick = UInt64(MessagePipeline.engineTick / .microseconds(1))
    /// How many bytes of lines an unpaced replay gathers before publishing them: well under a
    /// socket's buffer and the live limit, so a client that keeps up takes each batch whole.
    static let unpacedBatchBytes = 32 << 10

    init(path: String, realtime: Bool, loop: Bool, options: DecoderOptions, probe: LatencyProbe? = nil) {
        self.probe = probe
        self.path = path
        self.realtime = realtime
        self.loop = loop
        self.options = options
    }

    func requestStop() { stopRequested.store(true, ordering: .relaxed) }
    var isStopping: Bool { stopRequested.load(ordering: .relaxed) }

    /// Reads the trace (interruptibly: `isStopping` is checked every 25 ms, so a FIFO without a
    /// writer does not hold penkitd) and checks it can be decoded, so that errors surface before
    /// the daemon says READY. Every error names the trace file.
    func validate(isStopping: () -> Bool = { false }) throws -> [DeviceInfo] {
        let bytes: [UInt8]
        do {
            bytes = try InterruptibleRead.read(path: path, limit: TraceFile.maximumSize, isStopping: isStopping)
        } catch .stopped {
            throw StoppedWhileStarting()
        } catch .tooLarge {
            throw DaemonError("\(path): larger than \(TraceFile.maximumSize >> 20) MiB, the most penkitd reads: not a trace")
        } catch .open(let code) {
            throw DaemonError("\(path): cannot open the trace: \(String(cString: strerror(code)))")
        } catch .read(let code) {
            throw DaemonError("\(path): cannot read the trace: \(String(cString: strerror(code)))")
        }
        let trace = try TraceFile.parse(bytes: bytes, name: path)
        guard !trace.devices.isEmpty else { throw DaemonError("\(path): no devices in trace") }
        for device in trace.devices {
            do {
                _ = try TabletDecoder(device: device.description, options: options)
            } catch {
                throw DaemonError("\(path): \(device.description.name): \(error)")
            }
        }
        let times = trace.devices.flatMap { $0.events.map(\.time) }
        if let first = times.min(), let last = times.max(), last - first > Self.maxSpan {
            throw DaemonError("\(path): events span \((last - first) / 1_000_000) s (a far time jump?); penkitd replays at most \(Self.maxSpan / 1_000_000) s")
        }
        loaded.withLock { $0 = trace }
        return trace.devices.enumerated().map { index, device in
            DeviceInfo(id: index + 1, name: device.description.name, vendor: device.description.vendor,
                       product: device.description.product, source: path,
                       geometry: TabletGeometry(device.description))
        }
    }

    /// Runs until the trace ends (or forever with `loop`) or `requestStop`; returns the last event time.
    func run(devices: [DeviceInfo], pipeline: inout MessagePipeline, publish: (OutboundBatch) -> Void) throws -> UInt64 {
        // Taken out, not copied: once merged below, the trace as read is not needed again, and a
        // finished replay of a long recording must not keep it (tens of MiB for a 10 min stroke).
        guard let trace = loaded.withLock({ loaded -> Trace? in
            defer { loaded = nil }
            return loaded
        }) else { throw DaemonError("\(path): replay started before the trace was read") }
        let (merged, freshDecoders) = try Self.prepare(trace, options: options)
        guard let first = merged.first?.time, let last = merged.last?.time else { return 0 }
        let span = (last - first) + 1_000_000  // a second of quiet between loops; validate bounds last - first
        var iteration: UInt64 = 0
        var lastTime: UInt64 = 0
        var batch = OutboundBatch()
        var decoded: [TabletEvent] = []
        repeat {
            var decoders = freshDecoders
            // Real time: now (the previous pass already slept until its span ended). Unpaced:
            // each pass a span later than the last, so times keep increasing.
            // Saturating: a trace replayed for ages must stop numbering time, not trap.
            let (product, overflow) = iteration.multipliedReportingOverflow(by: span)
            let base = realtime ? MonotonicClock.now() : Self.saturatingAdd(first, overflow ? .max : product)

            /// Sleeps until `deadline` (CLOCK_MONOTONIC µs) while letting the engine's own timeouts
            /// (late pressure, missing tilt) fire every engine tick, as the live input thread's poll does:
            /// a pen held still in range must not delay them until the next event.
            /// Warm-ups before a report is due (`FrameWarmer`) happen here too, at the time the
            /// pen's cadence predicts, exactly as the live input thread's: never from the trace's next time.
            func pace(until deadline: UInt64) {
                var now = MonotonicClock.now()
                var nextTick = now + Self.engineTick
                while !isStopping {
                    if let due = pipeline.warmUpDue, due <= now { pipeline.warmUp(now: now, scratch: &batch) }
                    let wake = min(nextTick, pipeline.warmUpDue ?? .max)
                    guard wake < deadline else { break }
                    MonotonicClock.sleep(until: wake)
                    now = MonotonicClock.now()
                    if now >= nextTick {
                        nextTick = now + Self.engineTick
                        pipeline.advance(to: now, into: &batch)
                        if !batch.isEmpty { publish(batch); batch.removeAll() }
                    }
                }
                // A stop ends the wait at once: the rest of the gap (or a far time jump) is not slept out.
                if !isStopping { MonotonicClock.sleep(until: deadline) }
            }

            /// Fires every decoder's timers due up to `limit` (trace time), earliest first, each
            /// published on its own. Paced, each waits for its own time, as libinput's timerfd
            /// would fire it: a forced proximity-out goes out 50 ms after the last event, not
            /// with the next event.
            func fireTimers(upTo limit: UInt64) {
                while !isStopping {
                    var due: (index: Int, time: UInt64)?
                    for index in decoders.indices {
                        if let deadline = decoders[index].nextTimerDeadline, deadline <= limit,
                           deadline < due?.time ?? UInt64.max { due = (index, deadline) }
                    }
                    guard let due else { return }
                    if realtime { pace(until: Self.saturatingAdd(base, Self.offset(due.time, from: first))) }
                    decoded.removeAll(keepingCapacity: true)
                    decoders[due.index].advance(to: due.time, into: &decoded)
                    publishDecoded(from: due.index)
                }
            }

            /// Moves what a decoder just produced onto the run's clock, through the engine, to clients.
            func publishDecoded(from device: Int) {
                for var event in decoded {
                    event.time = Self.saturatingAdd(base, Self.offset(event.time, from: first))
                    lastTime = event.time
                    pipeline.consume(event, device: devices[device].id, into: &batch)
                }
                // Paced, each event goes out as it happens. Unpaced, nothing waits for the next
                // event, so lines gather into one batch: one send per client for many frames.
                if !batch.isEmpty, realtime || batch.bytes.count >= Self.unpacedBatchBytes {
                    publish(batch)
                    batch.removeAll()
                }
            }

            for item in merged {
                if isStopping {
                    if !batch.isEmpty { publish(batch) }
                    return lastTime
                }
                fireTimers(upTo: item.time)
                let when = Self.saturatingAdd(base, Self.offset(item.time, from: first))
                if realtime, item.event.type == 0, item.event.code == 0 {
                    pace(until: when)
                    probe?.record(.inputWoke, sourceTime: when)
                }
                decoded.removeAll(keepingCapacity: true)
                decoders[item.device].feed(item.event, into: &decoded)
                if realtime, item.event.type == 0, item.event.code == 0 { probe?.record(.decoded, sourceTime: when) }
                publishDecoded(from: item.device)
            }
            // Let libinput's timers (forced proximity-out) fire after the last event.
            fireTimers(upTo: Self.saturatingAdd(last, 1_000_000))
            if !loop {
                for device in devices { pipeline.removeDevice(device.id, at: lastTime, into: &batch) }
            }
            if !batch.isEmpty { publish(batch); batch.removeAll() }
            iteration += 1
            if realtime, loop { pace(until: Self.saturatingAdd(base, span)) }
        } while loop && !isStopping
        return lastTime
    }

    /// Every device's events merged by time ((time, device, index) keeps the order stable), and
    /// the decoders, made once: a decoder reads the quirks files as it is made, which would cost
    /// a looping replay more than its frames; each pass starts from a copy in their first state.
    private static func prepare(_ trace: Trace, options: DecoderOptions) throws
        -> (merged: [(time: UInt64, device: Int, event: EvdevEvent)], decoders: [TabletDecoder]) {
        var merged: [(time: UInt64, device: Int, event: EvdevEvent)] = []
        merged.reserveCapacity(trace.devices.reduce(0) { $0 + $1.events.count })
        for (index, device) in trace.devices.enumerated() {
            for event in device.events { merged.append((event.time, index, event)) }
        }
        merged.sort { $0.time < $1.time }
        let decoders = try trace.devices.map { try TabletDecoder(device: $0.description, options: options) }
        return (merged, decoders)
    }

    /// A trace time's distance from the first event; 0 for a time before it.
    static func offset(_ time: UInt64, from first: UInt64) -> UInt64 { time >= first ? time - first : 0 }

    static func saturatingAdd(_ a: UInt64, _ b: UInt64) -> UInt64 {
        let (sum, overflow) = a.addingReportingOverflow(b)
        return overflow ? .max : sum
    }
}
