import PenKit

/// A stroke the journal kept, as the history holds it: the journal keeps every stroke's whole
/// line, so a long one is cut into parts again here (at start, off the input thread's path), for
/// clients that take parts to get it in parts from `since` as they would have live.
enum JournaledStroke {
    /// `historyBytes`: a line longer than the history holds is left as it is (the history lets it
    /// go at once), not decoded for nothing.
    static func line(_ payload: [UInt8], pointsPerPart: Int, historyBytes: Int = .max) -> ReliableLine {
        // Only a line long enough to hold more than one part's points is worth decoding.
        guard payload.count > pointsPerPart * minimumPointBytes, payload.count <= historyBytes,
              let text = String(validating: payload.dropLast(), as: UTF8.self),
              case .stroke(let finalized)? = try? EngineMessage.decode(jsonLine: text),
              let parted = PartedStroke.encode(finalized, pointsPerPart: pointsPerPart) else { return .bytes(payload) }
        // Parts only if they make exactly the journaled line again; else the line as it was.
        guard parted.wholeCount == payload.count else { return .bytes(payload) }
        var offset = 0
        let same = (try? parted.forEachWholeLineGroup { pieces in
            for piece in pieces {
                guard offset + piece.count <= payload.count,
                      payload[offset..<(offset + piece.count)].elementsEqual(piece) else { throw Differs() }
                offset += piece.count
            }
        }) != nil
        return same ? .parted(parted) : .bytes(payload)
    }

    private struct Differs: Error {}

    /// Fewer bytes than any stroke point's JSON: a line shorter than this many per part point
    /// cannot need parts.
    static let minimumPointBytes = 60
}
