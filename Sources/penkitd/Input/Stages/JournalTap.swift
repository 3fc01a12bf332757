import PenEngine
import PenKit

/// Makes strokes durable with the exact bytes clients get: each began and finalized stroke's line
/// is recorded on the input thread as it is encoded, before the batch is published to any client.
struct JournalTap {
    private let journal: StrokeJournal?

    init(journal: StrokeJournal?) { self.journal = journal }

    /// A stroke in parts (`parted`) is journaled whole, as a client that takes whole strokes gets
    /// it, written from its pieces (`line` is then the closing line for clients that take parts).
    func record(_ message: EngineMessage, line: ArraySlice<UInt8>, parted: PartedStroke? = nil) {
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
