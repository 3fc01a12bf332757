import PenEngine
import PenKit

/// Encodes the engine's reply into the batch, each line on the channel that carries it. A
/// finalized stroke's bytes are produced here, on the input thread, before any client sees them.
///
/// Stops at a finalized stroke that would follow other lines, marking the batch's boundary
/// (`OutboundBatch.boundary`), when `splitsBeforeStrokes`: a stroke's line is about ten times a
/// frame's (far more for a long stroke), and the frame that lifted the pen must not wait for its
/// encoding, its journal record, nor its copies to every client. The input loop publishes, then
/// runs the pipeline with `.resume` to encode the rest. Strokes that late pressure finalizes go
/// out with the batch they were made in: the split is for the frame that lifts the pen.
struct EngineLines: PipelineStage {
    let splitsBeforeStrokes: Bool
    /// A finalized stroke with more points (or control points) than this goes out in parts
    /// (`stroke-part-points`, `PartedStroke`).
    let strokePartPoints: Int

    mutating func run(_ input: PipelineInput, _ call: inout PipelineCall, _ out: inout OutboundBatch) {
        if case .resume = input { precondition(out.isEmpty && !out.boundary, "resume takes an empty batch") }
        var splitting = splitsBeforeStrokes
        if case .control = input { splitting = false }
        let first = call.encoded
        call.firstNewMessage = out.messages.count
        while call.encoded < call.replies.count {
            let message = call.replies[call.encoded]
            if case .stroke = message, splitting, !out.isEmpty {
                out.boundary = true
                break
            }
            call.encoded += 1
            Self.append(message, to: &out, strokePartPoints: strokePartPoints)
        }
        call.newlyEncoded = first..<call.encoded
    }

    /// Encodes one engine message into the batch, on the channel that carries it.
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
