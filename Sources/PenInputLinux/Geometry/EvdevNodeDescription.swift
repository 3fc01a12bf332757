import CLibevdev
import Glibc
import PenInput

extension DeviceDescription {
    /// What a live event node declares (name, ids, properties, codes, axis ranges), read with
    /// libevdev from a short-lived read-only descriptor; nil when the node cannot be opened.
    /// Called only for nodes already admitted as tablets.
    package static func read(devnode: String) -> DeviceDescription? {
        let fd = open(devnode, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var dev: OpaquePointer?
        guard libevdev_new_from_fd(fd, &dev) == 0, let dev else { return nil }
        defer { libevdev_free(dev) }
        var description = DeviceDescription(
            name: libevdev_get_name(dev).map { String(cString: $0) } ?? "",
            bustype: UInt16(truncatingIfNeeded: libevdev_get_id_bustype(dev)),
            vendor: UInt16(truncatingIfNeeded: libevdev_get_id_vendor(dev)),
            product: UInt16(truncatingIfNeeded: libevdev_get_id_product(dev)),
            version: UInt16(truncatingIfNeeded: libevdev_get_id_version(dev)))
        for prop in 0..<UInt32(INPUT_PROP_CNT) where libevdev_has_property(dev, prop) != 0 {
            description.properties.insert(UInt16(prop))
        }
        for (type, count) in [(EV_KEY, KEY_CNT), (EV_ABS, ABS_CNT), (EV_REL, REL_CNT), (EV_MSC, MSC_CNT)] {
            guard libevdev_has_event_type(dev, UInt32(type)) != 0 else { continue }
            for code in 0..<UInt32(count) where libevdev_has_event_code(dev, UInt32(type), code) != 0 {
                description.codes[UInt16(type), default: []].insert(UInt16(code))
                if type == EV_ABS, let info = libevdev_get_abs_info(dev, code)?.pointee {
                    description.absInfo[UInt16(code)] = AbsInfo(value: info.value, minimum: info.minimum, maximum: info.maximum,
                                                                fuzz: info.fuzz, flat: info.flat, resolution: info.resolution)
                }
            }
        }
        return description
    }
}
