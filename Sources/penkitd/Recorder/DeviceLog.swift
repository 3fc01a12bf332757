import PenInput
import PenKit

/// What the flight recorder keeps of one tablet: its description, its newest events, when the
/// virtual tablet's grab held it, and what was learned of its
/// tools. A value kept only under `FlightRecorder`'s lock.
struct DeviceLog: Sendable {
    let info: DeviceInfo
    let description: DeviceDescription?
    var events: EventRing
    /// When the virtual tablet took its grab (nil while not held), and when it last let go:
    /// while held, the kernel hands the recorder's descriptor nothing.
    var grabbedSince: UInt64?
    var lastReleased: UInt64?
    /// Its tools as libinput and the engine came to know them.
    var tools = ToolLedger()

    /// Whether the grab held the device at any time from `from` on: its events are missing then.
    func grabbed(since from: UInt64) -> Bool { grabbedSince != nil || (lastReleased ?? 0) >= from }

    init(info: DeviceInfo, description: DeviceDescription?, capacity: Int, span: UInt64) {
        self.info = info
        self.description = description
        events = EventRing(capacity: capacity, span: span)
    }
}
