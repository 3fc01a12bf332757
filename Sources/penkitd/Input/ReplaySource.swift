import Logging
import PenInput
import PenKit
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
    /// How often a paced replay lets the engine's timeouts fire between events (µs), as LiveSource's poll.
    static let engineTick: UInt64 = 25_000

    init(path: String, realtime: Bool, loop: Bool, options: DecoderOptions, probe: LatencyProbe? = nil) {
        self.probe = probe
        self.path = path
        self.realtime = realtime
        self.loop = loop
        self.options = options
    }

    func requestStop() { stopRequested.store(true, ordering: .relaxed) }
    var isStopping: Bool { stopRequested.load(ordering: .relaxed) }

    /// Checks the trace can be read and decoded, so that errors surface before the daemon says READY.
    func validate() throws -> [DeviceInfo] {
        let trace = try TraceFile.load(path: path)
        guard !trace.devices.isEmpty else { throw DaemonError("\(path): no devices in trace") }
        for device in trace.devices { _ = try TabletDecoder(device: device.description, options: options) }
        return trace.devices.enumerated().map { index, device in
            DeviceInfo(id: index + 1, name: device.description.name, vendor: device.description.vendor,
                       product: device.description.product, source: path)
        }
    }

    /// Runs until the trace ends (or forever with `loop`) or `requestStop`; returns the last event time.
    func run(devices: [DeviceInfo], pipeline: inout MessagePipeline, publish: (OutboundBatch) -> Void) throws -> UInt64 {
        let trace = try TraceFile.load(path: path)
        // Merge every device's events by time; (time, device, index) keeps the order stable.
        var merged: [(time: UInt64, device: Int, event: EvdevEvent)] = []
        for (index, device) in trace.devices.enumerated() {
            for event in device.events { merged.append((event.time, index, event)) }
        }
        merged.sort { $0.time < $1.time }
        guard let first = merged.first?.time, let last = merged.last?.time else { return 0 }
        let span = last - first + 1_000_000  // a second of quiet between loops
        var iteration: UInt64 = 0
        var lastTime: UInt64 = 0
        var batch = OutboundBatch()
        var decoded: [TabletEvent] = []
        repeat {
            var decoders = try trace.devices.map { try TabletDecoder(device: $0.description, options: options) }
            // Real time: now (the previous pass already slept until its span ended). Unpaced:
            // each pass a span later than the last, so times keep increasing.
            let base = realtime ? MonotonicClock.now() : first + iteration * span

            /// Sleeps until `deadline` (CLOCK_MONOTONIC µs) while letting the engine's own timeouts
            /// (late pressure, missing tilt) fire every 25 ms, as the live input thread's poll does:
            /// a pen held still in range must not delay them until the next event.
            func pace(until deadline: UInt64) {
                var now = MonotonicClock.now()
                while deadline > now + Self.engineTick, !isStopping {
                    MonotonicClock.sleep(until: now + Self.engineTick)
                    now = MonotonicClock.now()
                    pipeline.advance(to: now, into: &batch)
                    if !batch.isEmpty { publish(batch); batch.removeAll() }
                }
                MonotonicClock.sleep(until: deadline)
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
                    if realtime { pace(until: base + (due.time - first)) }
                    decoded.removeAll(keepingCapacity: true)
                    decoders[due.index].advance(to: due.time, into: &decoded)
                    publishDecoded(from: due.index)
                }
            }

            /// Moves what a decoder just produced onto the run's clock, through the engine, to clients.
            func publishDecoded(from device: Int) {
                for var event in decoded {
                    event.time = base + (event.time - first)
                    lastTime = event.time
                    pipeline.consume(event, device: devices[device].id, into: &batch)
                }
                if !batch.isEmpty {
                    publish(batch)
                    batch.removeAll()
                }
            }

            for item in merged {
                if isStopping { return lastTime }
                fireTimers(upTo: item.time)
                let when = base + (item.time - first)
                if realtime, item.event.type == 0, item.event.code == 0 {
                    pace(until: when)
                    probe?.record(.inputWoke, sourceTime: when)
                }
                decoded.removeAll(keepingCapacity: true)
                decoders[item.device].feed(item.event, into: &decoded)
                publishDecoded(from: item.device)
            }
            // Let libinput's timers (forced proximity-out) fire after the last event.
            fireTimers(upTo: last + 1_000_000)
            if !loop {
                for device in devices { pipeline.removeDevice(device.id, at: lastTime, into: &batch) }
            }
            if !batch.isEmpty { publish(batch); batch.removeAll() }
            iteration += 1
            if realtime, loop { pace(until: base + span) }
        } while loop && !isStopping
        return lastTime
    }
}
