import CLibevdev
import PenInput

/// The events of one evdev frame, ending with its SYN_REPORT. The kernel stamps every
/// event of a frame with one time, and libinput acts on the frame as a whole.
package struct EvdevFrame: Sendable, Hashable {
    /// The frame's time in the trace (µs): that of its last event, the SYN_REPORT.
    package var time: UInt64
    package var events: [EvdevEvent]

    package init(time: UInt64, events: [EvdevEvent]) {
        self.time = time
        self.events = events
    }

    /// Splits an event stream at SYN_REPORT; trailing events without one form a last frame
    /// that gets a SYN_REPORT added, since the kernel delivers nothing until it sees one.
    package static func split(_ events: [EvdevEvent]) -> [EvdevFrame] {
        var frames: [EvdevFrame] = []
        var current: [EvdevEvent] = []
        for event in events {
            current.append(event)
            if event.type == UInt16(EV_SYN) && event.code == UInt16(SYN_REPORT) {
                frames.append(EvdevFrame(time: event.time, events: current))
                current.removeAll(keepingCapacity: true)
            }
        }
        if let last = current.last {
            current.append(EvdevEvent(time: last.time, type: UInt16(EV_SYN), code: UInt16(SYN_REPORT), value: 0))
            frames.append(EvdevFrame(time: last.time, events: current))
        }
        return frames
    }
}
