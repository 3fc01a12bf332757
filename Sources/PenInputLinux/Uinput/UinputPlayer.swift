import PenInput
import PenKit

/// Plays one trace device through a new uinput device with its original timing.
///
/// Each frame is written at its absolute offset from the start (clock_nanosleep with
/// TIMER_ABSTIME), so a late wake-up delays that frame only and errors never accumulate;
/// evemu-play's relative sleeps drift badly under emulation. A stall longer than
/// `maxCatchUp` (a host that deschedules an emulated guest for a second) shifts the rest of the
/// schedule instead: writing the missed frames back to back would stamp them all with the same
/// kernel time and overflow every reader's evdev buffer (SYN_DROPPED: events lost).
package final class UinputPlayer {
    package let device: UinputDevice
    package let frames: [EvdevFrame]

    /// When each frame was written, for measuring the replay's timing error.
    package struct Report: Sendable {
        /// Monotonic time (µs) that the first frame was due.
        package var start: UInt64
        /// Monotonic time (µs) that each frame's write returned, one per frame.
        package var written: [UInt64]
        /// How far (µs) stalls shifted the schedule, in all.
        package var shifted: UInt64 = 0
    }

    /// Lateness (µs) still caught up by writing frames early; more shifts the schedule.
    package var maxCatchUp: UInt64 = 20_000

    /// A pause (scripts: `penkit replay --uinput`'s PENKIT_UINPUT_PAUSE_AT): `wait` runs once, before
    /// the first frame whose trace time is `at` (µs) or later; the frames after it keep their spacing,
    /// shifted by the time it took.
    package var pause: (at: UInt64, wait: () throws -> Void)?

    package init(description: DeviceDescription, events: [EvdevEvent]) throws {
        device = try UinputDevice(description: description)
        frames = EvdevFrame.split(events)
    }

    /// Plays every frame; the first is due at `start` (monotonic µs), the others at their
    /// trace offset from it. Blocks the calling thread for the trace's duration.
    package func play(startingAt start: UInt64) throws -> Report {
        var written: [UInt64] = []
        written.reserveCapacity(frames.count)
        guard let first = frames.first?.time else { return Report(start: start, written: []) }
        var shifted: UInt64 = 0
        var pause = self.pause
        for frame in frames {
            if let p = pause, frame.time >= p.at {
                pause = nil
                try p.wait()
            }
            var due = start + shifted + (frame.time >= first ? frame.time - first : 0)
            let now = MonotonicClock.now()
            if now > due + maxCatchUp {
                shifted += now - due
                due = now
            }
            MonotonicClock.sleep(until: due)
            try device.write(frame)
            written.append(MonotonicClock.now())
        }
        return Report(start: start, written: written, shifted: shifted)
    }
}
