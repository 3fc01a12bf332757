import PenEngine
import PenKit

/// Turns tablet events into the lines clients receive. The daemon writes
/// proximity and button messages itself; frames, updates and strokes are the
/// stroke engine's `EngineMessage`s, sent exactly as `penkit replay --json` prints them.
///
/// The engine runs synchronously on the input thread, which is its serial
/// executor: no actor hop between an event and its frame on the hot path.
struct MessagePipeline {
    private var engine: StrokeEngine
    private var engineOutput: [EngineMessage] = []
    /// Where finalized strokes are made durable before any client is sent them.
    private let journal: StrokeJournal?

    /// The config file's inks, picked up when a tip goes down after a reload.
    private let inks: SharedInkChoice?
    private var inksSeen: UInt64 = .max
    private var inkChoice: InkChoice?
    /// The config file's device and tool sections, picked up at proximity and tip events after a reload.
    private let tablets: SharedSetting<TabletSettings>?
    private var tabletsSeen: UInt64 = .max
    private var tabletSettings = TabletSettings()
    /// The devices in use, whose mappings follow the config file.
    private var devices: [Int: DeviceInfo] = [:]
    private let baseConfiguration: EngineConfiguration
    /// The horizons clients asked for beyond the default; nil: every client gets the default.
    private let variants: PredictionVariants?
    /// Pressure sources' attachments and readings, from the socket loop.
    private let pressure: PressureInbox?
    private var pressureTaken: [PressureInput] = []
    /// The config file's preferred actions, picked up at the next press or tick after a reload.
    private let actionMap: SharedSetting<ActionMap>?
    private var actionMapSeen: UInt64 = .max
    private var actions = ActionResolver()
    private var padMotions = PadMotionResolver()
    /// Tablet events stamped earlier than the device's previous event. The engine keeps its clock
    /// (it never goes back), so nothing is lost, but a device or clock misbehaving must show:
    /// LiveSource logs the count.
    private(set) var eventsBackInTime = 0
    private var lastEventTime: [Int: UInt64] = [:]
    /// Where `penkit bench latency` reads when each frame left the engine; nil unless asked for.
    private let probe: LatencyProbe?
    /// Keeps the frame path warm before each report; nil where nothing waits between events (an unpaced replay).
    private var warmer: FrameWarmer?
    /// Warms the path past the pipeline (the hub's sockets) after each warm-up that ran.
    private var warmBeyond: () -> Void = {}
    /// Publishes what a batch holds so far, before a finalized stroke is encoded into it; nil:
    /// the stroke goes out with the rest of the batch.
    private var publishAhead: ((OutboundBatch) -> Void)?

    /// How often the input thread lets the engine's timeouts (late updates, missing tilt) fire
    /// while no input comes: LiveSource's poll timeout and ReplaySource's pacing step.
    static let engineTick: Duration = .milliseconds(25)

    init(configuration: EngineConfiguration = EngineConfiguration(),
         prediction: EnginePrediction? = EnginePrediction.penkit(),
         journal: StrokeJournal? = nil, afterSeq: UInt64 = 0, afterStroke: UInt64 = 0,
         inks: SharedInkChoice? = nil, tablets: SharedSetting<TabletSettings>? = nil,
         variants: PredictionVariants? = nil, actions: SharedSetting<ActionMap>? = nil,
         pressure: PressureInbox? = nil, probe: LatencyProbe? = nil) {
        baseConfiguration = configuration
        self.probe = probe
        self.pressure = pressure
        self.inks = inks
        self.tablets = tablets
        self.actionMap = actions
        self.variants = variants
        engine = StrokeEngine(configuration: configuration, prediction: prediction)
        engine.continueNumbering(afterSeq: afterSeq, afterStroke: afterStroke)
        self.journal = journal
        engineOutput.reserveCapacity(16)
        refreshSettings()
    }

    /// A device appeared: its mapping comes from the config file's sections. Returns the device
    /// as clients should see it (with its mapped space, when it is mapped).
    mutating func addDevice(_ info: DeviceInfo) -> DeviceInfo {
        devices[info.id] = info
        applySettings()
        return tabletSettings.described(info)
    }

    /// Takes a reloaded config's inks and tablet sections; false when neither changed.
    @discardableResult
    private mutating func refreshSettings() -> Bool {
        var changed = false
        if let choice = inks?.changed(since: &inksSeen) { inkChoice = choice; changed = true }
        if let settings = tablets?.changed(since: &tabletsSeen) { tabletSettings = settings; changed = true }
        if changed { applySettings() }
        return changed
    }

    private mutating func applySettings() {
        var configuration = inkChoice?.applied(to: baseConfiguration) ?? baseConfiguration
        configuration.feels = tabletSettings.feel.byType
        configuration.serialFeels = tabletSettings.feel.bySerial
        for (id, info) in devices { configuration.mappings[UInt32(id)] = tabletSettings.mapping(for: info) }
        engine.configuration = configuration
    }

    mutating func consume(_ event: TabletEvent, device: Int, into out: inout OutboundBatch) {
        takePressure(into: &out)
        actions.advance(to: event.time, into: &out)
        switch event.kind {
        case .proximity:
            // Mapping and feel change between proximities, never within a stroke.
            refreshSettings()
            out.append(.frames, ProximityMessage(device: device, time: event.time,
                                                 entering: event.state == .proximityIn, tool: event.tool))
        case .button:
            if let button = event.button {
                out.append(.buttons, ButtonMessage(device: device, time: event.time, button: button,
                                                   pressed: event.state == .pressed, tool: event.tool))
                if event.state == .pressed, let barrel = ActionTrigger.stylusButton(code: button) {
                    pressed(ActionResolver.Press(device: device, control: .stylus(barrel), time: event.time,
                                                 button: button, tool: event.tool), into: &out)
                }
            }
        case .tip:
            // Inks are chosen when a stroke begins, so a reload takes effect from the next one.
            if event.tipDown { refreshSettings() }
        case .axis:
            break
        }
        if let last = lastEventTime[device], event.time < last { eventsBackInTime += 1 }
        lastEventTime[device] = event.time
        engineOutput.removeAll(keepingCapacity: true)
        engine.handle(event, device: UInt32(device), into: &engineOutput)
        warmer?.observe(event, device: UInt32(device))
        if let probe, engineOutput.contains(where: { if case .frame = $0 { true } else { false } }) {
            probe.record(.engineDone, sourceTime: event.time)
        }
        append(into: &out)
    }

    /// From here on, the lines before a finalized stroke in a batch (the frame that lifted the
    /// pen, its `ended`) go to `publish` before the stroke is encoded and journaled: a stroke's
    /// line is about ten times a frame's (far more for a long stroke), and the frame must not wait
    /// for it, nor for its copies to every client. Each client still receives the lines in the
    /// engine's order.
    mutating func publishAheadOfStrokes(_ publish: @escaping (OutboundBatch) -> Void) {
        publishAhead = publish
    }

    /// Warm-ups before each report from here on: for a source that sleeps between events.
    /// `beyond` runs after each warm-up that ran, for what lies past the pipeline (the sockets).
    mutating func enableWarmUps(beyond: @escaping () -> Void = {}) {
        if warmer == nil { warmer = FrameWarmer() }
        warmBeyond = beyond
    }

    /// When the input thread should wake to warm the frame path (µs, CLOCK_MONOTONIC); nil when none is due.
    var warmUpDue: UInt64? { warmer?.due }
    /// Warm-ups run so far (0 without them).
    var warmUpsRun: Int { warmer?.warmUps ?? 0 }

    /// Runs the latest events through a shadow engine and encoder (`FrameWarmer`); `scratch`,
    /// the batch the next frame will be encoded into, is empty before and after.
    mutating func warmUp(now: UInt64, scratch: inout OutboundBatch) {
        if warmer?.warm(now: now, configuration: engine.configuration, prediction: engine.prediction, scratch: &scratch) == true {
            warmBeyond()
        }
    }

    /// A pad's event: a raw `pad` message, and for a button press or a step of a ring or strip
    /// the user's preferred action.
    mutating func consume(_ event: PadEvent, device: Int, into out: inout OutboundBatch) {
        out.append(.buttons, PadMessage(device: device, event: event))
        if event.kind != .button {
            refreshActionMap(into: &out)
            padMotions.consume(event, device: device, into: &out)
        }
        if event.kind == .button, event.pressed {
            pressed(ActionResolver.Press(device: device, control: .pad(event.number), time: event.time,
                                         button: event.number, tool: nil), into: &out)
        } else {
            actions.advance(to: event.time, into: &out)
        }
    }

    private mutating func pressed(_ press: ActionResolver.Press, into out: inout OutboundBatch) {
        refreshActionMap(into: &out)
        actions.press(press, into: &out)
    }

    private mutating func refreshActionMap(into out: inout OutboundBatch) {
        guard let map = actionMap?.changed(since: &actionMapSeen) else { return }
        actions.replace(map, into: &out)
        padMotions.replace(map)
    }

    /// Lets the engine's timeouts (late updates, missing tilt) and held single presses fire up to `time`.
    mutating func advance(to time: UInt64, into out: inout OutboundBatch) {
        takePressure(into: &out)
        actions.advance(to: time, into: &out)
        engineOutput.removeAll(keepingCapacity: true)
        engine.advance(to: time, into: &engineOutput)
        append(into: &out)
    }

    /// A device went away: its open strokes end cancelled.
    mutating func removeDevice(_ device: Int, at time: UInt64, into out: inout OutboundBatch) {
        devices[device] = nil
        actions.release(device: device, into: &out)
        padMotions.remove(device: device)
        lastEventTime[device] = nil
        engineOutput.removeAll(keepingCapacity: true)
        engine.removeDevice(UInt32(device), at: time, into: &engineOutput)
        append(into: &out)
    }

    /// Shutdown: every open stroke ends cancelled and every pending update expires,
    /// so each begun stroke is published exactly once.
    mutating func cancelOpenStrokes(at time: UInt64, into out: inout OutboundBatch) {
        actions.releaseAll(into: &out)
        engineOutput.removeAll(keepingCapacity: true)
        engine.cancelAll(at: time, into: &engineOutput)
        engine.flush(into: &engineOutput)
        append(into: &out)
    }

    /// Applies what pressure sources sent since the last call, before anything else the engine
    /// does: a reading that arrived before a timeout is checked is never expired by it.
    mutating func takePressure(into out: inout OutboundBatch) {
        guard let pressure else { return }
        pressure.take(into: &pressureTaken)
        for input in pressureTaken {
            engineOutput.removeAll(keepingCapacity: true)
            switch input {
            case .attach(let device, let attachment):
                engine.attachPressureSource(attachment, device: device)
                out.append(.devices, PressureSourceMessage.attached(PressureSourceRequest(
                    device: Int(device), serial: attachment.serial, latency: attachment.latency, jitter: attachment.jitter)))
            case .reading(let report, let arrival):
                engine.handlePressure(report, arrival: arrival, into: &engineOutput)
            case .detach(let device, let reason):
                // Announced first: the updates that follow are the fallback's expiries.
                out.append(.devices, PressureSourceMessage.detached(device: Int(device), reason: reason))
                engine.detachPressureSource(device: device, at: MonotonicClock.now(), into: &engineOutput)
            }
            append(into: &out)
        }
    }

    private mutating func append(into out: inout OutboundBatch) {
        for message in engineOutput {
            if case .stroke = message, let publishAhead, !out.isEmpty {
                publishAhead(out)
                out.removeAll()
            }
            Self.append(message, to: &out)
            if case .frame(let frame) = message, let requests = variants?.current, !requests.isEmpty {
                addAlternates(of: frame, for: requests, to: &out)
            }
            if let journal, let last = out.messages.last {
                // Journaled here, on the input thread, with the exact bytes clients get,
                // before the batch is published to any client.
                switch message {
                case .stroke(let finalized):
                    journal.record(.stroke, seq: finalized.seq, strokeID: finalized.stroke.id, line: Array(out.bytes[last.range]))
                case .began(let began):
                    journal.record(.began, seq: 0, strokeID: began.stroke, line: Array(out.bytes[last.range]))
                case .frame, .update, .ended:
                    break
                }
            }
        }
    }

    /// Encodes `frame` once per distinct requested horizon, into the same batch. Runs right after
    /// the engine made the frame, so "now" is when this frame is ready to go out: Android's pipeline age.
    private mutating func addAlternates(of frame: Frame, for requests: [PredictionRequest], to out: inout OutboundBatch) {
        let now = MonotonicClock.now()
        for request in requests {
            let horizon = request.horizon(eventTime: frame.sample.time, now: now)
            out.appendAlternate(EngineMessage.frame(engine.repredicted(frame, horizon: horizon)), for: request)
        }
    }

    /// Encodes one engine message into the batch, on the channel that carries it. A finalized
    /// stroke's bytes are produced here, on the input thread, before any client sees them.
    static func append(_ message: EngineMessage, to out: inout OutboundBatch) {
        switch message {
        case .frame(let frame): out.append(.frames, message, sourceTime: frame.sample.time)
        case .began, .ended: out.append(.frames, message)
        case .update: out.append(.updates, message)
        case .stroke(let finalized): out.append(.strokes, message, seq: finalized.seq)
        }
    }
}
