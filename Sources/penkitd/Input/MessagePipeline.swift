import PenKit

/// Turns tablet events into the lines clients receive. The daemon writes
/// proximity and button messages itself; frames, updates and strokes are the
/// stroke engine's `EngineMessage`s, sent exactly as `penkit replay --json` prints them.
struct MessagePipeline {
    private var strokes = StrokeMessages()
    private var engineOutput: [EngineMessage] = []

    mutating func consume(_ event: TabletEvent, device: Int, into out: inout [Outbound]) {
        switch event.kind {
        case .proximity:
            out.append(Outbound(.frames, ProximityMessage(device: device, time: event.time,
                                                          entering: event.state == .proximityIn, tool: event.tool).jsonLine()))
        case .button:
            if let button = event.button {
                out.append(Outbound(.buttons, ButtonMessage(device: device, time: event.time, button: button,
                                                            pressed: event.state == .pressed, tool: event.tool).jsonLine()))
            }
        case .tip, .axis:
            break
        }
        engineOutput.removeAll(keepingCapacity: true)
        strokes.consume(event, device: device, into: &engineOutput)
        for message in engineOutput { out.append(Self.outbound(message)) }
    }

    /// Ends every open stroke as cancelled (shutdown, device removal).
    mutating func cancelOpenStrokes(at time: UInt64, device: Int? = nil, into out: inout [Outbound]) {
        engineOutput.removeAll(keepingCapacity: true)
        strokes.cancelOpen(at: time, device: device, into: &engineOutput)
        for message in engineOutput { out.append(Self.outbound(message)) }
    }

    static func outbound(_ message: EngineMessage) -> Outbound {
        switch message {
        case .frame, .began, .ended: Outbound(.frames, message.jsonLine())
        case .update: Outbound(.updates, message.jsonLine())
        case .stroke(let finalized): Outbound(.strokes, message.jsonLine(), seq: finalized.seq)
        }
    }
}
