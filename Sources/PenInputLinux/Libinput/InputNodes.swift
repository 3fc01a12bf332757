import CUdev
import Glibc

/// Every evdev node udev knows, with what udev says of it: for `penkit doctor`, which explains
/// which nodes penkitd reads and why it leaves the others alone.
package struct InputNode: Sendable, Hashable {
    package var devnode: String
    package var sysname: String
    /// The kernel's device name (the parent input device's `name`).
    package var name: String
    /// udev's ID_INPUT_* properties that are set, without the prefix (TABLET, TABLET_PAD, KEYBOARD, …).
    package var kinds: Set<String>
}

extension UdevDevices {
    /// The /dev/input/event* nodes udev has processed, in node order.
    package static func inputNodes() -> [InputNode] {
        guard let udev = udev_new() else { return [] }
        defer { udev_unref(udev) }
        guard let enumerate = udev_enumerate_new(udev) else { return [] }
        defer { udev_enumerate_unref(enumerate) }
        udev_enumerate_add_match_subsystem(enumerate, "input")
        udev_enumerate_scan_devices(enumerate)
        var nodes: [InputNode] = []
        var entry = udev_enumerate_get_list_entry(enumerate)
        while let current = entry {
            defer { entry = udev_list_entry_get_next(current) }
            guard let path = udev_list_entry_get_name(current),
                  let device = udev_device_new_from_syspath(udev, path) else { continue }
            defer { udev_device_unref(device) }
            guard let node = udev_device_get_devnode(device).map({ String(cString: $0) }),
                  let sysname = udev_device_get_sysname(device).map({ String(cString: $0) }),
                  sysname.hasPrefix("event") else { continue }
            var kinds = Set<String>()
            var property = udev_device_get_properties_list_entry(device)
            while let p = property {
                if let key = udev_list_entry_get_name(p).map({ String(cString: $0) }), key.hasPrefix("ID_INPUT_"),
                   udev_list_entry_get_value(p).map({ String(cString: $0) }) == "1" {
                    kinds.insert(String(key.dropFirst("ID_INPUT_".count)))
                }
                property = udev_list_entry_get_next(p)
            }
            let name = udev_device_get_parent_with_subsystem_devtype(device, "input", nil)
                .flatMap { udev_device_get_sysattr_value($0, "name") }.map { String(cString: $0) } ?? ""
            nodes.append(InputNode(devnode: node, sysname: sysname, name: name, kinds: kinds))
        }
        return nodes.sorted { $0.sysname.count != $1.sysname.count ? $0.sysname.count < $1.sysname.count : $0.sysname < $1.sysname }
    }
}
