import CUdev
import Glibc
import PenInput

/// Finds tablets and follows hotplug through udev: only event nodes that udev
/// marks ID_INPUT_TABLET=1 or ID_INPUT_TABLET_PAD=1, and not a keyboard, are ever reported
/// (`UdevDevices.isAdmitted`), so a daemon that can read /dev/input never opens a keyboard or a mouse.
/// Not thread-safe: one thread (the input thread) owns it.
package final class TabletMonitor {
    package enum Change: Sendable, Hashable {
        case added(devnode: String, sysname: String)
        case removed(devnode: String, sysname: String)
    }

    private let udev: OpaquePointer
    private let monitor: OpaquePointer

    package init() throws {
        guard let udev = udev_new() else { throw LibinputError("udev_new failed") }
        guard let monitor = udev_monitor_new_from_netlink(udev, "udev") else {
            udev_unref(udev)
            throw LibinputError("cannot open the udev monitor (netlink)")
        }
        udev_monitor_filter_add_match_subsystem_devtype(monitor, "input", nil)
        guard udev_monitor_enable_receiving(monitor) >= 0 else {
            udev_monitor_unref(monitor)
            udev_unref(udev)
            throw LibinputError("cannot receive udev events")
        }
        self.udev = udev
        self.monitor = monitor
    }

    deinit {
        udev_monitor_unref(monitor)
        udev_unref(udev)
    }

    /// Poll this for readability, then call `receive()`.
    package var fileDescriptor: Int32 { udev_monitor_get_fd(monitor) }

    /// The tablets present now.
    package func present() -> [Change] {
        guard let enumerate = udev_enumerate_new(udev) else { return [] }
        defer { udev_enumerate_unref(enumerate) }
        udev_enumerate_add_match_subsystem(enumerate, "input")
        // Property matches are alternatives: either tag lists the node; isAdmitted decides.
        udev_enumerate_add_match_property(enumerate, "ID_INPUT_TABLET", "1")
        udev_enumerate_add_match_property(enumerate, "ID_INPUT_TABLET_PAD", "1")
        udev_enumerate_add_match_sysname(enumerate, "event*")
        udev_enumerate_scan_devices(enumerate)
        var result: [Change] = []
        var entry = udev_enumerate_get_list_entry(enumerate)
        while let current = entry {
            if let syspath = udev_list_entry_get_name(current),
               let device = udev_device_new_from_syspath(udev, syspath) {
                if let change = Self.tablet(device, removed: false) { result.append(change) }
                udev_device_unref(device)
            }
            entry = udev_list_entry_get_next(current)
        }
        return result
    }

    /// The hotplug changes udev has queued (tablets only).
    package func receive() -> [Change] {
        var result: [Change] = []
        while let device = udev_monitor_receive_device(monitor) {
            defer { udev_device_unref(device) }
            let action = udev_device_get_action(device).map { String(cString: $0) } ?? ""
            switch action {
            case "add": if let change = Self.tablet(device, removed: false) { result.append(change) }
            case "remove": if let change = Self.tablet(device, removed: true) { result.append(change) }
            default: break
            }
        }
        return result
    }

    private static func tablet(_ device: OpaquePointer, removed: Bool) -> Change? {
        guard let devnode = udev_device_get_devnode(device).map({ String(cString: $0) }),
              let sysname = udev_device_get_sysname(device).map({ String(cString: $0) }),
              sysname.hasPrefix("event"),
              // A removed node's properties are the ones it had; a node never admitted was never added.
              UdevDevices.isAdmitted(device)
        else { return nil }
        return removed ? .removed(devnode: devnode, sysname: sysname) : .added(devnode: devnode, sysname: sysname)
    }
}
