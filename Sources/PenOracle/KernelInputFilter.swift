import CLibevdev
import PenInput
import PenInputLinux

/// What the kernel's input core passes on of the events a driver (here: uinput) reports,
/// so a replay can say which of its frames readers will see. With the axis fuzz at zero:
/// an axis value equal to the current one is dropped, a key event that does not change
/// the key's state is dropped (autorepeat aside), a zero relative motion is dropped, codes
/// the device does not declare are dropped, and a frame left with nothing but its
/// SYN_REPORT is not delivered at all.
struct KernelInputFilter {
    private var abs: [UInt16: Int32] = [:]
    private var keysDown: Set<UInt16> = []
    private let device: DeviceDescription

    init(device: DeviceDescription) {
        self.device = device
        for (code, info) in device.absInfo { abs[code] = info.value }
    }

    /// The events of `frame` that readers receive, or nil when the kernel delivers no frame.
    mutating func pass(_ frame: EvdevFrame) -> EvdevFrame? {
        var kept: [EvdevEvent] = []
        for e in frame.events {
            switch Int32(e.type) {
            case EV_SYN:
                if e.code == UInt16(SYN_REPORT) { continue }
                kept.append(e)
            case EV_ABS:
                guard device.has(type: e.type, code: e.code) else { continue }
                if abs[e.code] == e.value { continue }
                abs[e.code] = e.value
                kept.append(e)
            case EV_KEY:
                guard device.has(type: e.type, code: e.code) else { continue }
                if e.value == 2 {
                    if keysDown.contains(e.code) { kept.append(e) }
                    continue
                }
                let down = e.value != 0
                if down == keysDown.contains(e.code) { continue }
                if down { keysDown.insert(e.code) } else { keysDown.remove(e.code) }
                kept.append(e)
            case EV_REL:
                guard device.has(type: e.type, code: e.code), e.value != 0 else { continue }
                kept.append(e)
            default:
                guard device.has(type: e.type, code: e.code) else { continue }
                kept.append(e)
            }
        }
        guard !kept.isEmpty else { return nil }
        kept.append(EvdevEvent(time: frame.time, type: UInt16(EV_SYN), code: UInt16(SYN_REPORT), value: 0))
        return EvdevFrame(time: frame.time, events: kept)
    }
}
