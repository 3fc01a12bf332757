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
    private let baseConfiguration: EngineConfiguration
    /// The horizons clients asked for beyond the default; nil: every client gets the default.
    private let variants: PredictionVariants?

    init(configuration: EngineConfiguration = EngineConfiguration(),
         predictor: (any FramePredictor)? = StageFramePredictor.penkit(),
         journal: StrokeJournal? = nil, afterSeq: UInt64 = 0, afterStroke: UInt64 = 0,
         inks: SharedInkChoice? = nil, variants: PredictionVariants? = nil) {
        baseConfiguration = configuration
        self.inks = inks
        self.variants = variants
        engine = StrokeEngine(configuration: configuration, predictor: predictor)
        engine.continueNumbering(afterSeq: afterSeq, afterStroke: afterStroke)
        self.journal = journal
        engineOutput.reserveCapacity(16)
    }

    mutating func consume(_ event: TabletEvent, device: Int, into out: inout [Outbound]) {
        switch event.kind {
        case .proximity:
            out.append(Outbound(.frames, ProximityMessage(device: device, time: event.time,
                                                          entering: event.state == .proximityIn, tool: event.tool)))
        case .button:
            if let button = event.button {
                out.append(Outbound(.buttons, ButtonMessage(device: device, time: event.time, button: button,
                                                            pressed: event.state == .pressed, tool: event.tool)))
            }
        case .tip:
            // Inks are chosen when a stroke begins, so a reload takes effect from the next one.
            if let choice = inks?.changed(since: &inksSeen) { engine.configuration = choice.applied(to: baseConfiguration) }
        case .axis:
            break
        }
        engineOutput.removeAll(keepingCapacity: true)
        engine.handle(event, device: UInt32(device), into: &engineOutput)
        append(into: &out)
    }

    /// Lets the engine's timeouts (late updates, missing tilt) fire up to `time`.
    mutating func advance(to time: UInt64, into out: inout [Outbound]) {
        engineOutput.removeAll(keepingCapacity: true)
        engine.advance(to: time, into: &engineOutput)
        append(into: &out)
    }

    /// A device went away: its open strokes end cancelled.
    mutating func removeDevice(_ device: Int, at time: UInt64, into out: inout [Outbound]) {
        engineOutput.removeAll(keepingCapacity: true)
        engine.removeDevice(UInt32(device), at: time, into: &engineOutput)
        append(into: &out)
    }

    /// Shutdown: every open stroke ends cancelled and every pending update expires,
    /// so each begun stroke is published exactly once.
    mutating func cancelOpenStrokes(at time: UInt64, into out: inout [Outbound]) {
        engineOutput.removeAll(keepingCapacity: true)
        engine.cancelAll(at: time, into: &engineOutput)
        engine.flush(into: &engineOutput)
        append(into: &out)
    }

    private mutating func append(into out: inout [Outbound]) {
        for message in engineOutput {
            var outbound = Self.outbound(message)
            if case .frame(let frame) = message, let requests = variants?.current, !requests.isEmpty {
                addAlternates(of: frame, for: requests, to: &outbound)
            }
            if let journal {
                // Journaled here, on the input thread, before the batch is published to any client.
                switch message {
                case .stroke(let finalized):
                    journal.record(.stroke, seq: finalized.seq, strokeID: finalized.stroke.id, line: outbound.line)
                case .began(let began):
                    journal.record(.began, seq: 0, strokeID: began.stroke, line: outbound.line)
                case .frame, .update, .ended:
                    break
                }
            }
            out.append(outbound)
        }
    }

    /// Encodes `frame` once per distinct requested horizon. Runs right after the engine made
    /// the frame, so "now" is when this frame is ready to go out: Android's pipeline age.
    private mutating func addAlternates(of frame: Frame, for requests: [PredictionRequest], to outbound: inout Outbound) {
        let now = MonotonicClock.now()
        outbound.alternates.reserveCapacity(requests.count)
        for request in requests {
            let horizon = request.horizon(eventTime: frame.sample.time, now: now)
            let variant = engine.repredicted(frame, horizon: horizon)
            outbound.alternates.append(Outbound.Alternate(
                request: request, line: Outbound(.frames, EngineMessage.frame(variant)).line))
        }
    }

    static func outbound(_ message: EngineMessage) -> Outbound {
        switch message {
        case .frame(let frame): Outbound(.frames, message, sourceTime: frame.sample.time)
        case .began, .ended: Outbound(.frames, message)
        case .update: Outbound(.updates, message)
        case .stroke(let finalized): Outbound(.strokes, message, seq: finalized.seq)
        }
    }
}
