import PenKit

/// What penkitd knew of one tablet's tools, and when it learned it, for a replay of a window cut
/// from a longer session (`penkit replay REPORT --check`), which cannot see what came before:
///
/// - the tools in the order libinput first met them, each with the identity penkitd was given
///   (libinput keeps a tool with a serial by (type, serial) and the id of its first proximity:
///   the DTH-2242's pen returns as 0x80a and stays 0x802, and that id picks its axes);
/// - when the engine learned, or unlearned, that a tool sends no tilt (`StrokeEngine`'s
///   `toolsWithoutTilt`): its newest changes, the older ones folded into `withoutTiltBefore`.
///
/// Both change at a tool's proximity at most, never per frame. The arrays are reserved when the
/// tablet comes and bounded: a tablet that names more tools than `toolsKept` (a forged serial per
/// proximity) has the rest counted, not kept. A value kept only under `FlightRecorder`'s lock.
struct ToolLedger: Sendable {
    struct Tool: Sendable, Equatable {
        var tool: ToolIdentity
        /// The time of its first proximity-in (µs, the events' clock).
        var since: UInt64
    }

    struct TiltChange: Sendable, Equatable {
        var time: UInt64
        var tool: ToolIdentity
        var withoutTilt: Bool
    }

    static let toolsKept = 64
    static let changesKept = 64

    private(set) var tools: [Tool] = []
    /// Tools beyond `toolsKept`, not kept.
    private(set) var toolsDropped = 0
    /// The tools known to send no tilt before the oldest change kept.
    private(set) var withoutTiltBefore: [ToolIdentity] = []
    /// The newest changes, oldest first.
    private(set) var changes: [TiltChange] = []

    init() {
        tools.reserveCapacity(8)
        changes.reserveCapacity(Self.changesKept)
    }

    /// A tool came into proximity: kept if it is new, as libinput finds a tool (by type and
    /// serial; a tool without a serial by its type alone).
    mutating func proximityIn(_ tool: ToolIdentity, at time: UInt64) {
        guard !tools.contains(where: { $0.tool.type == tool.type && $0.tool.serial == tool.serial }) else { return }
        guard tools.count < Self.toolsKept else {
            toolsDropped += 1
            return
        }
        tools.append(Tool(tool: tool, since: time))
    }

    /// The engine learned (or unlearned) at `time` that `tool` sends no tilt.
    mutating func tiltLearned(_ tool: ToolIdentity, withoutTilt: Bool, at time: UInt64) {
        if changes.count == Self.changesKept {
            let oldest = changes.removeFirst()
            withoutTiltBefore.removeAll { $0 == oldest.tool }
            if oldest.withoutTilt { withoutTiltBefore.append(oldest.tool) }
        }
        changes.append(TiltChange(time: time, tool: tool, withoutTilt: withoutTilt))
    }
}
