import CLibevdev
import Glibc
import PenInput
import PenInputLinux

/// A second reader of an evdev node that keeps every event exactly as the kernel delivered
/// it, with the kernel's CLOCK_MONOTONIC timestamps (the clock libinput asks for), so that
/// libinput's event times can be traced back to the frames that caused them.
final class RawEvdevReader {
    let fd: Int32
    private(set) var frames: [EvdevFrame] = []
    private var pending: [EvdevEvent] = []
    /// SYN_DROPPED reports seen: the kernel discarded events this reader was too slow for.
    private(set) var droppedReports = 0

    init(devnode: String) throws {
        fd = open(devnode, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw UinputError("cannot open \(devnode): \(String(cString: strerror(errno)))") }
        var clock = CLOCK_MONOTONIC
        // EVIOCSCLOCKID = _IOW('E', 0xa0, int)
        let eviocsclockid = UInt(0x4004_45a0)
        if ioctl(fd, eviocsclockid, &clock) != 0 {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw UinputError("cannot select CLOCK_MONOTONIC on \(devnode): \(reason)")
        }
    }

    deinit { close(fd) }

    /// Reads everything available now. Call when the descriptor is readable.
    func readAvailable() {
        var buffer = [input_event](repeating: input_event(), count: 64)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            guard n > 0 else { return }
            for e in buffer.prefix(n / MemoryLayout<input_event>.stride) {
                let time = UInt64(e.time.tv_sec) * 1_000_000 + UInt64(e.time.tv_usec)
                if e.type == UInt16(EV_SYN) && e.code == UInt16(SYN_DROPPED) { droppedReports += 1 }
                pending.append(EvdevEvent(time: time, type: e.type, code: e.code, value: e.value))
                if e.type == UInt16(EV_SYN) && e.code == UInt16(SYN_REPORT) {
                    frames.append(EvdevFrame(time: time, events: pending))
                    pending.removeAll(keepingCapacity: true)
                }
            }
        }
    }
}
