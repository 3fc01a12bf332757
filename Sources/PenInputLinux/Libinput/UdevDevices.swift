import CUdev
import Glibc
import PenInput
import PenKit

/// What udev knows of input nodes. libinput only accepts a node that udev has processed
/// (it reads the ID_INPUT_* tags), and penkit only opens nodes udev tags ID_INPUT_TABLET=1 or
/// ID_INPUT_TABLET_PAD=1 (a pad's own node, on current kernels), never one tagged a keyboard.
package enum UdevDevices {
    /// Whether udev has processed the device at `syspath` (e.g. /sys/class/input/event5).
    package static func isInitialized(syspath: String) -> Bool {
        guard let udev = udev_new() else { return false }
        defer { udev_unref(udev) }
        guard let device = udev_device_new_from_syspath(udev, syspath) else { return false }
        defer { udev_device_unref(device) }
        return udev_device_get_is_initialized(device) != 0
    }

    /// Waits, polling udev's database, until it has processed the device; false on timeout.
    /// Under emulation this takes seconds, so a fixed sleep would be either slow or wrong.
    package static func waitUntilInitialized(syspath: String, timeoutMicroseconds: UInt64) -> Bool {
        let deadline = MonotonicClock.now() + timeoutMicroseconds
        while !isInitialized(syspath: syspath) {
            if MonotonicClock.now() >= deadline { return false }
            usleep(10_000)
        }
        return true
    }

    /// Whether udev tags the node at `devnode` (/dev/input/eventN) as a tablet or a tablet pad (`isAdmitted`).
    package static func isTablet(devnode: String) -> Bool {
        withDevice(devnode: devnode, isAdmitted) ?? false
    }

    /// The kernel's name of the input device behind `devnode` (its parent's `name` attribute),
    /// read without opening the node.
    package static func inputName(devnode: String) -> String? {
        withDevice(devnode: devnode) { device in
            // The parent is owned by the child: not unreferenced here.
            guard let parent = udev_device_get_parent_with_subsystem_devtype(device, "input", nil),
                  let name = udev_device_get_sysattr_value(parent, "name") else { return nil }
            return String(cString: name)
        } ?? nil
    }

    /// `body` on udev's device for the character node at `devnode`, found by its device number
    /// (without opening the node); nil when it is not a character node or udev does not know it.
    private static func withDevice<T>(devnode: String, _ body: (OpaquePointer) -> T) -> T? {
        var st = stat()
        guard stat(devnode, &st) == 0, (st.st_mode & S_IFMT) == S_IFCHR else { return nil }
        guard let udev = udev_new() else { return nil }
        defer { udev_unref(udev) }
        guard let device = udev_device_new_from_devnum(udev, CChar(UInt8(ascii: "c")), st.st_rdev) else { return nil }
        defer { udev_device_unref(device) }
        return body(device)
    }

    /// The one rule for which udev devices penkit opens: ID_INPUT_TABLET=1 or ID_INPUT_TABLET_PAD=1,
    /// and not ID_INPUT_KEYBOARD=1 (a pad's buttons are keys to the kernel; a keyboard is never read).
    static func isAdmitted(_ device: OpaquePointer) -> Bool {
        func tagged(_ name: String) -> Bool {
            udev_device_get_property_value(device, name).map { String(cString: $0) } == "1"
        }
        return (tagged("ID_INPUT_TABLET") || tagged("ID_INPUT_TABLET_PAD")) && !tagged("ID_INPUT_KEYBOARD")
    }
}

extension UdevDevices {
    /// Whether the kernel has already taken the input device at `devnode` away (unplugged).
    /// Opens the node and asks its version: evdev answers ENODEV (or the node is gone) once the
    /// device is unregistered. Any other failure (e.g. no permission) counts as present.
    package static func isGone(devnode: String) -> Bool {
        let fd = open(devnode, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        if fd < 0 { return errno == ENODEV || errno == ENOENT || errno == ENXIO }
        defer { close(fd) }
        var version: Int32 = 0
        let eviocgversion: UInt = 0x8004_4501  // _IOR('E', 0x01, int)
        return ioctl(fd, eviocgversion, &version) < 0 && errno == ENODEV
    }
}
