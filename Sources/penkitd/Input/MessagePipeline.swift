import PenEngine
import PenInput
import PenKit

/// Turns tablet events into the lines clients receive: events → engine → encode, once.
///
/// The daemon writes proximity and button messages itself; frames, updates and strokes are the
/// stroke engine's `EngineMessage`s, sent exactly as `penkit replay --json` prints them. Every
/// other concern is a small stage beside the engine (`PipelineStages`), as libinput's tablet
/// plugins are: the settings snapshot, pad actions, the journal tap and the horizon variants.
/// What clients change (pressure sources, horizons) comes in as inputs (`apply`), which the
/// input loop drains from the control queue.
///
/// The engine runs synchronously on the input thread, which is its serial executor: no actor hop
/// between an event and its frame on the hot path. The pipeline never publishes: it fills the
/// batch the input loop hands it, and the loop publishes.
struct MessagePipeline {
    private var engine: StrokeEngine
    private var stages: PipelineStages
    /// What the engine said in reply to the current call; `encoded` of it are in a batch already.
    private var engineOutput: [EngineMessage] = []
    private var encoded = 0
    /// Frames of a stroke sent per device, for a pressure source's `contactFrames`.
    private var contactFrames: [UInt32: Int] = [:]
    /// Whether a finalized stroke that would follow other lines in a batch starts a batch of its
    /// own (`OutboundBatch.boundary`): a stroke's line is about ten times a frame's (far more for a
    /// long stroke), and the frame that lifted the pen must not wait for its encoding, its journal
    /// record, nor its copies to every client.
    private let splitsBeforeStrokes: Bool
    /// Tablet events stamped earlier than the device's previous event. The engine keeps its clock
    /// (it never goes back), so nothing is lost, but a device or clock misbehaving must show: the
    /// input loop logs the count.
    private(set) var eventsBackInTime = 0
    private var lastEventTime: [Int: UInt64] = [:]
    /// Where `penkit bench latency` reads when each frame left the engine; nil unless asked for.
    private let probe: LatencyProbe?
    /// A finalized stroke with more points (or control points) than this goes out in parts
    /// (`stroke-part-points`, `PartedStroke`).
    private let strokePartPoints: Int

    /// How often the input loop lets the engine's timeouts (late updates, missing tilt) fire while
    /// no input comes.
    static let engineTick: Duration = .milliseconds(25)
    static let engineTickMicroseconds = UInt64(engineTick / .microseconds(1))

    /// `after` continues the journal's numbering: its last stroke seq and stroke id.
    init(prediction: EnginePrediction? = EnginePrediction.penkit(), stages: PipelineStages = PipelineStages(),
         after numbering: (seq: UInt64, stroke: UInt64) = (0, 0), splitsBeforeStrokes: Bool = false,
         probe: LatencyProbe? = nil, strokePartPoints: Int = PartedStroke.defaultPointsPerPart) {
        self.stages = stages
        self.strokePartPoints = strokePartPoints
        self.probe = probe
        self.splitsBeforeStrokes = splitsBeforeStrokes
        engine = StrokeEngine(configuration: stages.settings.configuration, prediction: prediction)
        engine.continueNumbering(afterSeq: numbering.seq, afterStroke: numbering.stroke)
        engineOutput.reserveCapacity(16)
    }

    /// The engine's configuration and predictor, for a shadow engine (`FrameWarmer`).
    var configuration: EngineConfiguration { engine.configuration }
    var prediction: EnginePrediction? { engine.prediction }

    /// A device appeared: its mapping comes from the config file's sections. Returns the device
    /// as clients should see it (with its mapped space, when it is mapped).
    mutating func addDevice(_ info: DeviceInfo, description: DeviceDescription? = nil) -> DeviceInfo {
        let described = stages.settings.add(info)
        engine.configuration = stages.settings.configuration
        if let description, info.geometry != nil {
            stages.virtualTablet?.add(device: info.id, real: description, mapping: engine.configuration.mappings[UInt32(info.id)])
        }
        return described
    }

    /// The input ends: the virtual tablets lift their pens, give the real tablets back and go.
    mutating func stopVirtualTablets(at time: UInt64) {
        stages.virtualTablet?.stop(at: time)
    }

    private mutating func refreshSettings() {
        if let configuration = stages.settings.refreshed() { engine.configuration = configuration }
    }

    mutating func consume(_ event: TabletEvent, device: Int, into out: inout OutboundBatch) {
        stages.actions.advance(to: event.time, into: &out)
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
                if event.state == .pressed {
                    stages.actions.stylusButtonPressed(button, time: event.time, tool: event.tool, device: device, into: &out)
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
        // The virtual tablet is written first: apps reading the compositor should not wait for
        // the engine's prediction and encoding. The frame then says where it put the pen. With a
        // lead (virtual-tablet-lead-ms) it needs the engine's prediction, so it is written after.
        let leads = stages.virtualTablet?.leads ?? false
        var delivered = leads ? nil : stages.virtualTablet?.consume(event, device: device, configuration: engine.configuration)
        startEngineCall()
        engine.handle(event, device: UInt32(device), into: &engineOutput)
        if leads {
            var prediction: Frame?
            for message in engineOutput {
                if case .frame(let frame) = message, frame.device == UInt32(device) { prediction = frame }
            }
            delivered = stages.virtualTablet?.consume(event, device: device, configuration: engine.configuration,
                                                      prediction: prediction)
        }
        if let delivered {
            for index in engineOutput.indices {
                if case .frame(var frame) = engineOutput[index], frame.device == UInt32(device) {
                    frame.delivered = delivered
                    engineOutput[index] = .frame(frame)
                }
            }
        }
        if let probe, engineOutput.contains(where: { if case .frame = $0 { true } else { false } }) {
            probe.record(.engineDone, sourceTime: event.time)
        }
        encode(into: &out)
    }

    /// A pad's event: a raw `pad` message, and for a button press or a step of a ring or strip
    /// the user's preferred action.
    mutating func consume(_ event: PadEvent, device: Int, into out: inout OutboundBatch) {
        out.append(.buttons, PadMessage(device: device, event: event))
        stages.actions.consume(event, device: device, into: &out)
    }

    /// Lets the engine's timeouts (late updates, missing tilt) and held single presses fire up to `time`.
    mutating func advance(to time: UInt64, into out: inout OutboundBatch) {
        stages.actions.advance(to: time, into: &out)
        startEngineCall()
        engine.advance(to: time, into: &engineOutput)
        encode(into: &out)
    }

    /// A device went away: its open strokes end cancelled.
    mutating func removeDevice(_ device: Int, at time: UInt64, into out: inout OutboundBatch) {
        stages.settings.remove(device: device)
        stages.virtualTablet?.remove(device: device, at: time)
        stages.actions.remove(device: device, into: &out)
        contactFrames[UInt32(device)] = nil
        lastEventTime[device] = nil
        startEngineCall()
        engine.removeDevice(UInt32(device), at: time, into: &engineOutput)
        encode(into: &out)
    }

    /// Shutdown: every open stroke ends cancelled and every pending update expires,
    /// so each begun stroke is published exactly once.
    mutating func cancelOpenStrokes(at time: UInt64, into out: inout OutboundBatch) {
        stages.actions.releaseAll(into: &out)
        startEngineCall()
        engine.cancelAll(at: time, into: &engineOutput)
        engine.flush(into: &engineOutput)
        encode(into: &out)
    }

    /// Applies what the control plane sent since the last call (`ControlQueue`); the input loop
    /// calls it before each pen event and engine tick, so that a reading that arrived before a
    /// timeout is checked is never expired by it. Strokes that late pressure finalizes go out
    /// with the batch they were made in: the split before strokes is for the frame that lifts the pen.
    mutating func apply(_ inputs: [ControlInput], into out: inout OutboundBatch) {
        for input in inputs {
            if case .horizons(let requests) = input {
                stages.horizons.replace(requests)
                continue
            }
            startEngineCall()
            switch input {
            case .horizons:
                break
            case .attach(let device, let attachment):
                engine.attachPressureSource(attachment, device: device)
                out.append(.devices, PressureSourceMessage.attached(PressureSourceRequest(
                    device: Int(device), serial: attachment.serial, latency: attachment.latency, jitter: attachment.jitter),
                    contactFrames: contactFrames[device, default: 0]), sourceStateOf: Int(device))
            case .reading(let report, let arrival):
                engine.handlePressure(report, arrival: arrival, into: &engineOutput)
            case .detach(let device, let reason):
                // Announced first: the updates that follow are the fallback's expiries.
                out.append(.devices, PressureSourceMessage.detached(device: Int(device), reason: reason), sourceStateOf: Int(device))
                engine.detachPressureSource(device: device, at: MonotonicClock.now(), into: &engineOutput)
            }
            encode(into: &out, splitting: false)
        }
    }

    private mutating func startEngineCall() {
        precondition(encoded == engineOutput.count, "the input loop did not resume the pipeline after a boundary")
        engineOutput.removeAll(keepingCapacity: true)
        encoded = 0
    }

    /// After the input loop published a batch that ended at a boundary: encodes the rest of the
    /// engine's reply (the stroke that started the boundary, and what followed it).
    mutating func resume(into out: inout OutboundBatch) {
        precondition(out.isEmpty && !out.boundary, "resume takes an empty batch")
        encode(into: &out)
    }

    /// Encodes the engine's reply into the batch, each line on the channel that carries it, with
    /// the other horizons' frames and the journal's records. Stops at a finalized stroke that
    /// would follow other lines, marking the batch's boundary, when the pipeline splits there.
    private mutating func encode(into out: inout OutboundBatch, splitting: Bool = true) {
        while encoded < engineOutput.count {
            let message = engineOutput[encoded]
            if case .stroke = message, splitting, splitsBeforeStrokes, !out.isEmpty {
                out.boundary = true
                return
            }
            encoded += 1
            Self.append(message, to: &out, strokePartPoints: strokePartPoints)
            if case .frame(let frame) = message {
                if frame.stroke != nil { contactFrames[frame.device, default: 0] += 1 }
                stages.horizons.addAlternates(of: frame, engine: &engine, to: &out)
            }
            if let last = out.messages.last { stages.journal.record(message, line: out.bytes[last.range], parted: last.parted) }
        }
    }

    /// Encodes one engine message into the batch, on the channel that carries it. A finalized
    /// stroke's bytes are produced here, on the input thread, before any client sees them.
    static func append(_ message: EngineMessage, to out: inout OutboundBatch,
                       strokePartPoints: Int = PartedStroke.defaultPointsPerPart) {
        switch message {
        case .frame(let frame): out.append(.frames, message, sourceTime: frame.sample.time)
        case .began, .ended: out.append(.frames, message)
        case .update: out.append(.updates, message)
        case .stroke(let finalized): out.append(stroke: finalized, pointsPerPart: strokePartPoints)
        }
    }
}
