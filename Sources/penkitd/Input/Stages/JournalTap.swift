import PenEngine
import PenKit

/// Makes strokes durable with the exact bytes clients get: each began and finalized stroke's line
/// is recorded on the input thread once encoded, before the batch is published to any client.
struct JournalTap: PipelineStage {
    private let journal: StrokeJournal?

    init(journal: StrokeJournal?) { self.journal = journal }

    mutating func run(_ input: PipelineInput, _ call: inout PipelineCall, _ out: inout OutboundBatch) {
        guard journal != nil else { return }
        for (offset, index) in call.newlyEncoded.enumerated() {
            let encoded = out.messages[call.firstNewMessage + offset]
            record(call.replies[index], line: out.bytes[encoded.range], parted: encoded.parted)
        }
    }

    /// A stroke in parts (`parted`) is journaled whole, as a client that takes whole strokes gets
    /// it, written from its pieces (`line` is then the closing line for clients that take parts).
    private func record(_ message: EngineMessage, line: ArraySlice<UInt8>, parted: PartedStroke?) {
        guard let journal else { return }
        switch message {
        case .stroke(let finalized):
            if let parted {
                journal.record(seq: finalized.seq, strokeID: finalized.stroke.id, parted: parted)
            } else {
                journal.record(.stroke, seq: finalized.seq, strokeID: finalized.stroke.id, line: Array(line))
            }
        case .began(let began):
            journal.record(.began, seq: 0, strokeID: began.stroke, line: Array(line))
        case .frame, .update, .ended:
            break
        }
    }
}
