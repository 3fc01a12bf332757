import CLibevdev
import Glibc
import PenInput

/// A kernel input device created through /dev/uinput with a trace device's exact
/// description. Destroying it (deinit) removes the device, as unplugging would.
package final class UinputDevice {
    private let uinput: OpaquePointer
    /// /dev/input/eventN of the new device.
    package let devnode: String
    /// /sys/class/input/eventN of the new device.
    package let syspath: String

    package init(description: DeviceDescription) throws {
        try Self.checkUinputAccess()
        let template = try LibevdevDescription(description)
        var created: OpaquePointer?
        let rc = libevdev_uinput_create_from_device(template.handle, LIBEVDEV_UINPUT_OPEN_MANAGED.rawValue, &created)
        guard rc == 0, let created else {
            throw UinputError("cannot create uinput device \"\(description.name)\": \(String(cString: strerror(-rc)))")
        }
        uinput = created
        guard let node = libevdev_uinput_get_devnode(created) else {
            libevdev_uinput_destroy(created)
            throw UinputError("uinput device \"\(description.name)\" has no /dev/input node (is devtmpfs mounted?)")
        }
        devnode = String(cString: node)
        let sysname = devnode.split(separator: "/").last.map(String.init) ?? devnode
        syspath = "/sys/class/input/\(sysname)"
    }

    deinit { libevdev_uinput_destroy(uinput) }

    /// The clear error a person needs when uinput cannot be used here.
    static func checkUinputAccess() throws {
        let path = "/dev/uinput"
        if access(path, F_OK) != 0 {
            throw UinputError("\(path) does not exist: this kernel has no uinput (load it with `modprobe uinput`, "
                + "or run in a VM: `make oracle` / `make e2e` boot one)")
        }
        if access(path, W_OK) != 0 {
            throw UinputError("\(path) is not writable by this user: run as root or get write access to it")
        }
    }

    /// Writes one frame in a single write(2), so the kernel stamps all of it at one instant.
    /// The kernel ignores the time field of events written to uinput.
    package func write(_ frame: EvdevFrame) throws {
        try write(events: frame.events[...])
    }

    /// Writes events (one frame or more, each ending with SYN_REPORT) in a single write(2), from
    /// a buffer on the stack: penkitd's virtual tablet writes one per pen report.
    package func write(events: ArraySlice<EvdevEvent>) throws {
        let fd = libevdev_uinput_get_fd(uinput)
        let written = withUnsafeTemporaryAllocation(of: input_event.self, capacity: events.count) { buffer in
            for (slot, e) in zip(buffer.indices, events) {
                buffer.initializeElement(at: slot, to: input_event(time: timeval(), type: e.type, code: e.code, value: e.value))
            }
            return Glibc.write(fd, buffer.baseAddress, MemoryLayout<input_event>.stride * events.count)
        }
        if written != MemoryLayout<input_event>.stride * events.count {
            throw UinputError("writing to uinput failed: \(String(cString: strerror(errno)))")
        }
    }

    /// Sets the kernel fuzz of every axis to 0. A recording holds values the kernel already
    /// filtered once; replayed with the original fuzz they would be filtered again. Call it
    /// after the reader (libinput) has opened the device and read the original fuzz.
    package func zeroKernelFuzz() throws {
        let fd = open(devnode, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw UinputError("cannot open \(devnode): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var dev: OpaquePointer?
        let rc = libevdev_new_from_fd(fd, &dev)
        guard rc == 0, let dev else { throw UinputError("cannot read \(devnode): \(String(cString: strerror(-rc)))") }
        defer { libevdev_free(dev) }
        for code in 0...UInt32(ABS_MAX) where libevdev_has_event_code(dev, UInt32(EV_ABS), code) != 0 {
            guard let current = libevdev_get_abs_info(dev, code), current.pointee.fuzz != 0 else { continue }
            var info = current.pointee
            info.fuzz = 0
            let rc = libevdev_kernel_set_abs_info(dev, code, &info)
            if rc != 0 { throw UinputError("EVIOCSABS on \(devnode) failed: \(String(cString: strerror(-rc)))") }
        }
    }
}
