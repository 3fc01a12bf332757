/// Pressure sources' attachments and readings, handed over by the socket loop (`PressureInbox`),
/// taken on the input thread before anything else the engine does: a reading that arrived
/// before a timeout is checked is never expired by it.
struct PressureIntake {
    private let inbox: PressureInbox?

    init(inbox: PressureInbox?) { self.inbox = inbox }

    /// Everything waiting since the last take, oldest first, into `taken` (emptied first); one
    /// atomic load while no source sends (nearly always).
    func take(into taken: inout [PressureInput]) {
        taken.removeAll(keepingCapacity: true)
        inbox?.take(into: &taken)
    }
}
