import PenKit

/// Turns tablet events into the messages clients receive. The daemon owns
/// proximity and button messages; frames and strokes come from the stroke
/// engine behind `StrokeMessages`.
struct MessagePipeline {
    private var strokes = StrokeMessages()

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
        strokes.consume(event, device: device, into: &out)
    }

    /// Ends every open stroke as cancelled (shutdown, device removal).
    mutating func cancelOpenStrokes(at time: UInt64, device: Int? = nil, into out: inout [Outbound]) {
        strokes.cancelOpen(at: time, device: device, into: &out)
    }
}
