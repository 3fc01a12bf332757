import PenInput
import PenKit

/// One thing an input source read: a device came or went, or a device sent an event.
enum InputItem {
    /// A device appeared, as the source knows it (its mapping is applied by the pipeline), with
    /// what its node declares when the source could read it (the virtual tablet copies it).
    case deviceAdded(DeviceInfo, description: DeviceDescription?)
    /// A device went away at `time` (µs, the source's clock): its open strokes end cancelled.
    case deviceRemoved(id: Int, time: UInt64)
    case tool(TabletEvent, device: Int)
    case pad(PadEvent, device: Int)
    /// The input is exhausted at `time` (a replay's end): every open stroke ends cancelled and
    /// every pending update expires, then the devices go away. Nothing follows it.
    case ended(time: UInt64)
}

/// Where the input loop's events come from: live libinput, a trace replay, or anything later.
///
/// A source only reads: it never touches the engine, the hub or the clock's pacing policy. The
/// input loop (`InputLoop`) owns pacing, the engine's ticks, warm-ups and publishing, and asks the
/// source for what is ready. Sources are used by the input thread alone.
protocol InputSource {
    /// True when event times are CLOCK_MONOTONIC and arrive as they happen (live input, a paced
    /// replay): the loop then ticks the engine and warms the frame path between events. False for
    /// an unpaced replay, whose times are the trace's and which nothing waits for.
    var isPaced: Bool { get }

    /// When the source must run again even if no input comes (µs, CLOCK_MONOTONIC), beyond what
    /// the loop's own tick asks for; nil when it has no timer of its own.
    var nextWakeUp: UInt64? { get }

    /// Waits for input at most until `deadline` (µs, CLOCK_MONOTONIC; ignored when not paced),
    /// then appends what is ready to `items`. Returns the time up to which input has been read
    /// (µs, the events' clock): every event stamped before it is in `items` or came earlier, so
    /// the engine's timeouts may run to it. Returns nil once the source has ended.
    mutating func read(until deadline: UInt64, into items: inout [InputItem]) throws -> UInt64?
}
