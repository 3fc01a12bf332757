import Glibc
import PenInput

/// A second, read-only descriptor on a pen tablet's node, for the flight recorder alone: the
/// kernel hands every reader the same events, so this one sees exactly what libinput reads,
/// with CLOCK_MONOTONIC times (the clock libinput asks for). Never grabbed, and never read when
/// the virtual tablet grabs the node (the kernel then sends this descriptor nothing).
/// Reading allocates nothing: one fixed buffer of kernel events.
final class RawTabletTap {
    let device: Int
    private let fd: Int32
    /// struct input_event on 64-bit Linux: tv_sec, tv_usec (8 bytes each), type, code (2), value (4).
    private static let eventSize = 24
    private var buffer = [UInt8](repeating: 0, count: 64 * 24)

    /// nil when the node cannot be opened (the recorder then has no events of it; penkitd goes on).
    init?(device: Int, devnode: String) {
        let fd = open(devnode, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        var clock = CLOCK_MONOTONIC
        // EVIOCSCLOCKID = _IOW('E', 0xa0, int): the kernel's default is CLOCK_REALTIME.
        guard ioctl(fd, UInt(0x4004_45a0), &clock) == 0 else {
            close(fd)
            return nil
        }
        self.device = device
        self.fd = fd
    }

    deinit { close(fd) }

    /// Hands everything readable now to `recorder`, in the kernel's order.
    func drain(into recorder: FlightRecorder) {
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            guard n > 0 else { return }
            buffer.withUnsafeBytes { bytes in
                for i in 0..<(n / Self.eventSize) {
                    let at = i * Self.eventSize
                    let seconds = bytes.loadUnaligned(fromByteOffset: at, as: Int64.self)
                    let micros = bytes.loadUnaligned(fromByteOffset: at + 8, as: Int64.self)
                    let time = UInt64(clamping: seconds) &* 1_000_000 &+ UInt64(clamping: micros)
                    recorder.record(EvdevEvent(time: time, type: bytes.loadUnaligned(fromByteOffset: at + 16, as: UInt16.self),
                                               code: bytes.loadUnaligned(fromByteOffset: at + 18, as: UInt16.self),
                                               value: bytes.loadUnaligned(fromByteOffset: at + 20, as: Int32.self)),
                                    device: device)
                }
            }
        }
    }
}
