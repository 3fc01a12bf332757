import Logging
import PenEngine
import PenKit

/// The input thread's one loop, for live input, a replay and anything later: reads a source,
/// runs what it read through the pipeline, and publishes. It owns pacing, the engine's ticks,
/// warm-ups and publishing; sources only read, the pipeline only encodes, the outlet only receives.
/// What clients change reaches it as inputs too: it drains the control queue before each pen
/// event and engine tick. It never reads the server.
///
/// Noncopyable: there is one loop, on one thread, and it is never copied. Copyable, Swift emits
/// value witnesses to copy its whole pipeline (about 24 KB of penkitd's binary) that nothing calls.
struct InputLoop: ~Copyable {
    private var pipeline: MessagePipeline
    private let outlet: any InputOutlet
    /// Keeps the frame path warm before each report; nil where nothing waits between events.
    private var warmer: FrameWarmer?
    private let logger: Logger
    private let isStopping: () -> Bool
    private var batch = OutboundBatch()
    private var items: [InputItem] = []
    /// The devices in use, as clients were told of them.
    private var devices: [Int: DeviceInfo] = [:]
    private var backInTimeLogged = 0
    private var sourceEnded = false
    /// Pressure sources' inputs and horizon changes, from the control plane; nil where none come (tests).
    private let control: ControlQueue?
    private var controlInputs: [ControlInput] = []
    /// Keeps what is published, and live tablets' descriptions (docs/bug-reports.md); nil when off.
    private let recorder: FlightRecorder?
    /// What each tablet's pen is doing, for `status` requests; nil where nobody asks (tests).
    private let activity: DeviceActivity?

    /// What the loop shares beyond its source and outlet, each nil where it is not wanted.
    struct Wiring {
        var control: ControlQueue?
        var recorder: FlightRecorder?
        var activity: DeviceActivity?
        /// Whether the frame path is warmed before each report (`FrameWarmer`).
        var warmsUp = false
    }

    /// How many bytes of lines an unpaced source gathers before publishing them: well under a
    /// socket's buffer and the live limit, so a client that keeps up takes each batch whole.
    static let unpacedBatchBytes = 32 << 10

    /// `devices` were announced to clients already (a replay's, before the first client connected).
    init(pipeline: MessagePipeline, outlet: any InputOutlet, wiring: Wiring, devices: [DeviceInfo] = [],
         logger: Logger, isStopping: @escaping () -> Bool) {
        control = wiring.control
        recorder = wiring.recorder
        activity = wiring.activity
        self.pipeline = pipeline
        self.outlet = outlet
        self.warmer = wiring.warmsUp ? FrameWarmer() : nil
        self.logger = logger
        self.isStopping = isStopping
        items.reserveCapacity(64)
        controlInputs.reserveCapacity(64)
        for device in devices {
            self.devices[device.id] = self.pipeline.addDevice(device)
            wiring.activity?.deviceAdded(device.id)
        }
    }

    /// Warm-ups run so far (0 without them).
    var warmUpsRun: Int { warmer?.warmUps ?? 0 }

    /// Runs until the source ends or a stop is requested; then every open stroke ends cancelled,
    /// at the source's clock. Returns true when the source ended by itself.
    mutating func run(_ source: inout some InputSource) throws -> Bool {
        var lastRead: UInt64 = 0
        defer {
            let end = source.isPaced ? MonotonicClock.now() : lastRead
            pipeline.run(.shutdown(at: end), into: &batch)
            publish()
            pipeline.stopVirtualTablets(at: end)
        }
        while !isStopping() {
            let deadline = source.isPaced ? wakeUp(source) : .max
            items.removeAll(keepingCapacity: true)
            guard let readUpTo = try source.read(until: deadline, into: &items) else {
                publish()
                return true
            }
            lastRead = readUpTo
            for item in items { handle(item) }
            if sourceEnded { return true }
            logBackInTime()
            if source.isPaced {
                // The engine's timeouts (late updates, missing tilt) fire without input too.
                drainControl()
                pipeline.run(.tick(readUpTo), into: &batch)
                publishThroughBoundaries()
                publish()
            } else if batch.bytes.count >= Self.unpacedBatchBytes {
                publish()
            }
        }
        publish()
        return false
    }

    /// Warms the frame path if a warm-up is due, then says when to wake next: the engine's tick,
    /// the next warm-up or the source's own timer, whichever is first.
    private mutating func wakeUp(_ source: some InputSource) -> UInt64 {
        var now = MonotonicClock.now()
        // Shortly before the pen's next report is due, the frame path runs once on a shadow
        // engine (FrameWarmer), so the report finds it in the cache. The batch is empty here.
        if let due = warmer?.due, due <= now {
            if warmer?.warm(now: now, configuration: pipeline.configuration, prediction: pipeline.prediction,
                            scratch: &batch) == true {
                outlet.warmSockets()
            }
            now = MonotonicClock.now()
        }
        var deadline = now &+ MessagePipeline.engineTickMicroseconds
        if let due = warmer?.due, due > now { deadline = min(deadline, due) }
        if let wake = source.nextWakeUp { deadline = min(deadline, wake) }
        return deadline
    }

    private mutating func handle(_ item: InputItem) {
        switch item {
        case .deviceAdded(let raw, let description):
            let info = pipeline.addDevice(raw, description: description)
            devices[info.id] = info
            recorder?.deviceAdded(info, description: description)
            activity?.deviceAdded(info.id)
            logger.info(info.pad != nil && info.geometry == nil ? "tablet pad added" : "tablet added",
                        metadata: ["device": "\(info.id)", "name": "\(info.name)", "node": "\(info.source)"])
            outlet.deviceAdded(info)
        case .deviceRemoved(let id, let time):
            pipeline.run(.deviceRemoved(id, at: time), into: &batch)
            publishThroughBoundaries()
            publish()
            recorder?.deviceRemoved(id)
            activity?.deviceRemoved(id)
            guard let info = devices.removeValue(forKey: id) else { return }
            // With the warm-ups run so far, so that a log shows whether live input gets them.
            logger.info("tablet removed", metadata: ["device": "\(id)", "warm_ups": "\(warmUpsRun)"])
            outlet.deviceRemoved(info)
        case .tool(let event, let device):
            activity?.observe(event, device: device)
            drainControl()
            pipeline.run(.tool(event, device: device), into: &batch)
            warmer?.observe(event, device: UInt32(device))
            publishThroughBoundaries()
        case .pad(let event, let device):
            pipeline.run(.pad(event, device: device), into: &batch)
        case .ended(let time):
            pipeline.run(.shutdown(at: time), into: &batch)
            publish()
            for (_, info) in devices.sorted(by: { $0.key < $1.key }) { outlet.deviceRemoved(info) }
            devices.removeAll()
            sourceEnded = true
        }
    }

    /// Hands the pipeline what the control plane posted since the last drain, before the engine
    /// sees the next event or tick. One atomic load when nothing waits (nearly always).
    private mutating func drainControl() {
        guard let control else { return }
        control.take(into: &controlInputs)
        // Each before the engine's next event or tick, so that a reading that arrived before a
        // timeout is checked is never expired by it.
        for input in controlInputs { pipeline.run(.control(input), into: &batch) }
    }

    /// Publishes what the batch holds, if anything.
    private mutating func publish() {
        publishThroughBoundaries()
        if !batch.isEmpty { send(batch) }
        batch.removeAll()
    }

    /// Publishes `batch`, and keeps its lines in the flight recorder, stamped with their newest
    /// source time (the event they came from) or, for lines of no event, the recorder's now.
    private func send(_ batch: OutboundBatch) {
        outlet.publish(batch)
        guard let recorder else { return }
        let time = batch.messages.lazy.map(\.sourceTime).max() ?? 0
        recorder.recordLines(batch.bytes, lines: batch.messages.lazy.map { ($0.range, $0.parted, $0.sourceTime) },
                             time: time > 0 ? time : recorder.now())
    }

    /// Where the pipeline stopped before a finalized stroke, publishes the lines before it, then
    /// lets the pipeline go on into the emptied batch.
    private mutating func publishThroughBoundaries() {
        while batch.boundary {
            send(batch)
            batch.removeAll()
            pipeline.run(.resume, into: &batch)
        }
    }

    /// Logged at the 1st, 2nd, 4th, 8th… occurrence: seen, without one line per event.
    private mutating func logBackInTime() {
        let count = pipeline.eventsBackInTime
        guard count > backInTimeLogged, count >= 2 * backInTimeLogged else { return }
        backInTimeLogged = count
        logger.warning("a tablet event was stamped earlier than the one before it; the engine kept its clock",
                       metadata: ["count": "\(count)"])
    }
}
