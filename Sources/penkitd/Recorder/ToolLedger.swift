import PenInput
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
/// - the proximity-outs libinput gave, each with the time of the event before it: one that
///   libinput's 50 ms timer made late, after the next report was queued (a loaded host), cannot
///   be told from the events, and a replay must make it where libinput did.
///
/// All change at a tool's proximity at most, never per frame. The arrays are reserved when the
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
    static let proximityOutsKept = 256

    private(set) var tools: [Tool] = []
    /// Tools beyond `toolsKept`, not kept.
    private(set) var toolsDropped = 0
    /// The tools known to send no tilt before the oldest change kept.
    private(set) var withoutTiltBefore: [ToolIdentity] = []
    /// The newest changes, oldest first.
    private(set) var changes: [TiltChange] = []
    /// The newest proximity-outs libinput gave, oldest first.
    private(set) var proximityOuts: [LiveProximityOut] = []

    init() {
        tools.reserveCapacity(8)
        changes.reserveCapacity(Self.changesKept)
        proximityOuts.reserveCapacity(Self.proximityOutsKept)
    }

    /// libinput ended a proximity at `time`, right after an event of `after`.
    mutating func proximityOut(at time: UInt64, after: UInt64) {
        if proximityOuts.count == Self.proximityOutsKept { proximityOuts.removeFirst() }
        proximityOuts.append(LiveProximityOut(time: time, after: after))
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
