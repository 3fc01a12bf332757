import PenEngine
import PenKit

/// What reaches the input pipeline: everything the input loop hands it goes through the one
/// sequence of stages (`MessagePipeline.run`), each stage acting on the inputs it cares about.
enum PipelineInput {
    /// A pen's event.
    case tool(TabletEvent, device: Int)
    /// A pad's event: a button, or a step of a ring or strip.
    case pad(PadEvent, device: Int)
    /// Time passed without input: the engine's timeouts and held single presses fire up to it.
    case tick(UInt64)
    /// A device went away: its open strokes end cancelled.
    case deviceRemoved(Int, at: UInt64)
    /// Shutdown: every open stroke ends cancelled and every pending update expires, so each begun
    /// stroke is published exactly once.
    case shutdown(at: UInt64)
    /// One thing the control plane posted (`ControlQueue`): a pressure source, a reading, horizons.
    case control(ControlInput)
    /// After the input loop published a batch that ended at a boundary: the rest of the engine's
    /// reply goes into the emptied batch. Only the stages that encode act on it.
    case resume
}

/// One stage of the input pipeline. Every stage takes the same arguments, as libinput's
/// `tablet_flush` steps do: what happened, the call in flight (the engine and its reply), and
/// the batch of lines clients will get. A stage ignores the inputs that are not its concern.
///
/// Stages are concrete values held by `MessagePipeline` and called in a fixed order, so the
/// compiler sees every call: no existential box, nothing allocated per event.
protocol PipelineStage {
    mutating func run(_ input: PipelineInput, _ call: inout PipelineCall, _ out: inout OutboundBatch)
}

/// A stage that may be off (nil): it then does nothing.
extension Optional: PipelineStage where Wrapped: PipelineStage {
    mutating func run(_ input: PipelineInput, _ call: inout PipelineCall, _ out: inout OutboundBatch) {
        // Optional chaining mutates the stage in place: no copy of its storage.
        self?.run(input, &call, &out)
    }
}

/// What one run of the pipeline shares between its stages: the stroke engine, which the input
/// thread owns, and its reply to this input, of which `encoded` are in a batch already.
struct PipelineCall {
    var engine: StrokeEngine
    /// What the engine said in reply to the current input.
    var replies: [EngineMessage] = []
    /// How many of `replies` are encoded (in this batch or one published before a boundary).
    var encoded = 0
    /// The replies this run encoded, and where their lines start in the batch: the stages after
    /// the encoder (horizons, journal) act on these, one batch message per reply.
    var newlyEncoded: Range<Int> = 0..<0
    var firstNewMessage = 0
    /// Where the virtual tablet put the pen for the current tool event; nil when it wrote nothing.
    var delivered: DeliveredPosition?
    /// Whether the engine has had this input: a stage that runs on either side of it (the virtual
    /// tablet, ahead on the engine's prediction with a lead) acts on one side only.
    var engineRan = false

    init(engine: StrokeEngine) {
        self.engine = engine
        replies.reserveCapacity(16)
    }

    /// Starts the engine's reply to a new input. Every reply to the previous one must have been
    /// encoded: the input loop resumes the pipeline after each boundary before anything else.
    mutating func begin(_ input: PipelineInput) {
        delivered = nil
        engineRan = false
        if case .resume = input { return }
        precondition(encoded == replies.count, "the input loop did not resume the pipeline after a boundary")
        replies.removeAll(keepingCapacity: true)
        encoded = 0
        newlyEncoded = 0..<0
    }

    /// Whether the engine made a frame in reply to this input.
    var madeFrame: Bool { replies.contains { if case .frame = $0 { true } else { false } } }
}
