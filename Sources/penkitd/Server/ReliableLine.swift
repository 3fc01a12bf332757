import PenKit

/// A line that is never dropped (a stroke, a device change, a recording line) as penkitd holds it
/// for the history and for clients: its bytes, or a long stroke in parts (`PartedStroke`), which a
/// client gets in parts or whole as it asked. Either way shared, never copied per client.
enum ReliableLine: Sendable {
    case bytes([UInt8])
    case parted(PartedStroke)

    /// What the line weighs in the history: the whole line's bytes (what a `since` replay sends
    /// a client that did not ask for parts).
    var count: Int {
        switch self {
        case .bytes(let line): line.count
        case .parted(let stroke): stroke.wholeCount
        }
    }

    /// What it weighs in one client's queue, in the form that client gets.
    func count(inParts: Bool) -> Int {
        switch self {
        case .bytes(let line): line.count
        case .parted(let stroke): inParts ? stroke.partedCount : stroke.wholeCount
        }
    }
}
