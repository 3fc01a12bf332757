/// Plays one trace device through a new uinput device with its original timing.
///
/// Each frame is written at its absolute offset from the start (clock_nanosleep with
/// TIMER_ABSTIME), so a late wake-up delays that frame only and errors never accumulate;
/// evemu-play's relative sleeps drift badly under emulation.
public final class UinputPlayer {
    public let device: UinputDevice
    public let frames: [EvdevFrame]

    /// When each frame was written, for measuring the replay's timing error.
    public struct Report: Sendable {
        /// Monotonic time (µs) that the first frame was due.
        public var start: UInt64
        /// Monotonic time (µs) that each frame's write returned, one per frame.
        public var written: [UInt64]
    }

    public init(description: DeviceDescription, events: [EvdevEvent]) throws {
        device = try UinputDevice(description: description)
        frames = EvdevFrame.split(events)
    }

    /// Plays every frame; the first is due at `start` (monotonic µs), the others at their
    /// trace offset from it. Blocks the calling thread for the trace's duration.
    public func play(startingAt start: UInt64) throws -> Report {
        var written: [UInt64] = []
        written.reserveCapacity(frames.count)
        guard let first = frames.first?.time else { return Report(start: start, written: []) }
        for frame in frames {
            let due = start + (frame.time >= first ? frame.time - first : 0)
            MonotonicClock.sleep(untilMicroseconds: due)
            try device.write(frame)
            written.append(MonotonicClock.nowMicroseconds())
        }
        return Report(start: start, written: written)
    }
}
