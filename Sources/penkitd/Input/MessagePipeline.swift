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

    init(configuration: EngineConfiguration = EngineConfiguration(),
         predictor: (any FramePredictor)? = StageFramePredictor.penkit(),
         journal: StrokeJournal? = nil, afterSeq: UInt64 = 0, afterStroke: UInt64 = 0) {
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
        case .tip, .axis:
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
            let outbound = Self.outbound(message)
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

    static func outbound(_ message: EngineMessage) -> Outbound {
        switch message {
        case .frame(let frame): Outbound(.frames, message, sourceTime: frame.sample.time)
        case .began, .ended: Outbound(.frames, message)
        case .update: Outbound(.updates, message)
        case .stroke(let finalized): Outbound(.strokes, message, seq: finalized.seq)
        }
    }
}
