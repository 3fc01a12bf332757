import CLibevdev
import PenInput

/// A libevdev device (not backed by a file) that declares exactly what a trace's device
/// declares: name, ids, properties, event codes and axis ranges with fuzz, flat and
/// resolution. It is the template libevdev's uinput API copies into a kernel device.
final class LibevdevDescription {
    let handle: OpaquePointer

    init(_ description: DeviceDescription) throws {
        guard let dev = libevdev_new() else { throw UinputError("libevdev_new failed") }
        handle = dev
        libevdev_set_name(dev, description.name)
        libevdev_set_id_bustype(dev, Int32(description.bustype))
        libevdev_set_id_vendor(dev, Int32(description.vendor))
        libevdev_set_id_product(dev, Int32(description.product))
        libevdev_set_id_version(dev, Int32(description.version))
        for prop in description.properties.sorted() {
            libevdev_enable_property(dev, UInt32(prop))
        }
        for type in description.codes.keys.sorted() where type != UInt16(EV_SYN) {
            libevdev_enable_event_type(dev, UInt32(type))
            for code in description.codes[type, default: []].sorted() {
                let rc = try enable(type: type, code: code, description: description)
                if rc != 0 {
                    throw UinputError("cannot declare event type \(type) code \(code) on the uinput device")
                }
            }
        }
    }

    deinit { libevdev_free(handle) }

    private func enable(type: UInt16, code: UInt16, description: DeviceDescription) throws -> Int32 {
        switch Int32(type) {
        case EV_ABS:
            guard let info = description.absInfo[code] else {
                throw UinputError("the trace declares axis \(code) without its range (absinfo)")
            }
            var abs = input_absinfo(value: info.value, minimum: info.minimum, maximum: info.maximum,
                                    fuzz: info.fuzz, flat: info.flat, resolution: info.resolution)
            return libevdev_enable_event_code(handle, UInt32(type), UInt32(code), &abs)
        case EV_REP:
            // Recordings carry no repeat settings; the kernel's defaults (250 ms, 33 ms) stand in.
            var value: Int32 = code == UInt16(REP_DELAY) ? 250 : 33
            return libevdev_enable_event_code(handle, UInt32(type), UInt32(code), &value)
        default:
            return libevdev_enable_event_code(handle, UInt32(type), UInt32(code), nil)
        }
    }
}
