import PenEngine
import PenInput
import PenKit

/// Turns what the input loop reads into the lines clients receive: one fixed sequence of stages
/// (`run`), every stage a `PipelineStage` taking the same arguments, as libinput's `tablet_flush`
/// runs its steps in one function. Frames, updates and strokes are the stroke engine's
/// `EngineMessage`s, sent exactly as `penkit replay --json` prints them; the daemon writes
/// proximity, button, pad, action and pressure-source lines itself.
///
/// The engine runs synchronously on the input thread, which is its serial executor: no actor hop
/// between an event and its frame on the hot path. The pipeline never publishes: it fills the
/// batch the input loop hands it, and the loop publishes.
struct MessagePipeline {
    private var call: PipelineCall
    private var order = EventOrder()
    private var settings: SettingsSnapshot
    private var buttons: PadActions
    private var proximity = ProximityLines()
    private var virtualTablet: VirtualTabletStage?
    private var engineStep = EngineStep()
    private var toolLedger: ToolLedgerTap?
    private var pressureSources = PressureSourceLines()
    private var delivery = DeliveryStamp()
    private var probe: EngineDoneProbe
    private var lines: EngineLines
    private var horizons = HorizonVariants()
    private var journal: JournalTap

    /// How often the input loop lets the engine's timeouts (late updates, missing tilt) fire while
    /// no input comes.
    static let engineTick: Duration = .milliseconds(25)
    static let engineTickMicroseconds = UInt64(engineTick / .microseconds(1))

    /// `after` continues the journal's numbering: its last stroke seq and stroke id.
    init(prediction: EnginePrediction? = EnginePrediction.penkit(), stages: PipelineStages = PipelineStages(),
         after numbering: (seq: UInt64, stroke: UInt64) = (0, 0), splitsBeforeStrokes: Bool = false,
         probe: LatencyProbe? = nil, strokePartPoints: Int = PartedStroke.defaultPointsPerPart) {
        var engine = StrokeEngine(configuration: stages.settings.configuration, prediction: prediction)
        engine.continueNumbering(afterSeq: numbering.seq, afterStroke: numbering.stroke)
        call = PipelineCall(engine: engine)
        settings = stages.settings
        buttons = stages.actions
        virtualTablet = stages.virtualTablet
        toolLedger = stages.toolLedger
        journal = stages.journal
        self.probe = EngineDoneProbe(probe: probe)
        lines = EngineLines(splitsBeforeStrokes: splitsBeforeStrokes, strokePartPoints: strokePartPoints)
    }

    /// The pipeline, in order. Every input goes through every stage; each acts on what concerns it.
    mutating func run(_ input: PipelineInput, into out: inout OutboundBatch) {
        call.begin(input)
        order.run(input, &call, &out)            // events stamped back in time, counted
        settings.run(input, &call, &out)         // a reload's mapping, feel and inks, between strokes
        buttons.run(input, &call, &out)          // button and pad lines, their actions, held presses
        proximity.run(input, &call, &out)        // proximity lines
        virtualTablet.run(input, &call, &out)    // the virtual tablet, written before the engine runs
        engineStep.run(input, &call, &out)       // the stroke engine: frames, updates, strokes
        toolLedger.run(input, &call, &out)       // the recorder learns what the engine learned of tools
        virtualTablet.run(input, &call, &out)    // or after it, ahead on its prediction (a lead)
        pressureSources.run(input, &call, &out)  // pressure-source lines, contact frames counted
        delivery.run(input, &call, &out)         // frames say where the virtual tablet put the pen
        probe.run(input, &call, &out)            // engine_done, for `penkit bench latency`
        lines.run(input, &call, &out)            // the engine's reply encoded, up to a boundary
        horizons.run(input, &call, &out)         // the new frames for other prediction horizons
        journal.run(input, &call, &out)          // began and finalized strokes made durable
    }

    /// Tablet events stamped earlier than the device's previous event (`EventOrder`).
    var eventsBackInTime: Int { order.eventsBackInTime }

    /// The engine's configuration and predictor, for a shadow engine (`FrameWarmer`).
    var configuration: EngineConfiguration { call.engine.configuration }
    var prediction: EnginePrediction? { call.engine.prediction }

    /// A device appeared: its mapping comes from the config file's sections, and a pen tablet gets
    /// its virtual tablet unless its section keeps it out (`virtual-tablet = false`). Returns the device as clients should see it (with its mapped space, when
    /// it is mapped). Not an input of the sequence: it writes no line, the input loop announces it.
    mutating func addDevice(_ info: DeviceInfo, description: DeviceDescription? = nil) -> DeviceInfo {
        let described = settings.add(info)
        call.engine.configuration = settings.configuration
        if let description, info.geometry != nil, virtualTablet != nil, settings.takesVirtualTablet(info) {
            virtualTablet?.add(device: info.id, real: description, mapping: call.engine.configuration.mappings[UInt32(info.id)])
        }
        return described
    }

    /// The input ends, after the last batch is published: the virtual tablets lift their pens,
    /// give the real tablets back and go.
    mutating func stopVirtualTablets(at time: UInt64) {
        virtualTablet?.stop(at: time)
    }
}
