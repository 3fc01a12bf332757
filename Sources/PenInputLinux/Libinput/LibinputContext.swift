import CLibinput
import Glibc
import PenInput
import PenKit

/// A libinput context on the path backend: penkit adds exactly the device nodes it
/// chose (tablets, found by its own udev monitor), never every input device of a seat.
///
/// libinput is not thread-safe: create, use and drop a context on one thread. It is
/// deliberately not Sendable. The `libinput_interface` it hands to libinput lives as
/// long as the context, as libinput requires.
package final class LibinputContext {
    package typealias LogHandler = (LibinputLogPriority, String) -> Void

    /// What the context needs from its owner; kept alive by the context for libinput's callbacks.
    final class Callbacks {
        let log: LogHandler
        /// Decides whether a node may be opened at all (the daemon admits tablets only).
        let admit: (String) -> Bool
        /// The descriptor libinput reads each node through, by node: the one a grab must be taken
        /// on (a grab on another descriptor would hide the events from libinput too).
        var descriptors: [String: Int32] = [:]
        init(log: @escaping LogHandler, admit: @escaping (String) -> Bool) {
            self.log = log
            self.admit = admit
        }
    }

    private let li: OpaquePointer
    private let interface: UnsafeMutablePointer<libinput_interface>
    private let callbacks: Unmanaged<Callbacks>
    private var devices: [String: OpaquePointer] = [:]
    /// Device descriptions by libinput device pointer, so events do not rebuild (and allocate)
    /// them one by one. Valid while libinput holds the device; dropped when it is removed.
    private var infoCache: [OpaquePointer: LibinputDeviceInfo] = [:]

    /// - Parameters:
    ///   - quirksDirectory: a directory of .quirks files to use instead of the system's
    ///     (libinput reads LIBINPUT_QUIRKS_DIR when the first device is added; the local
    ///     override file is then not read). nil: the system's quirks.
    ///   - logPriority: the lowest priority passed to `log`.
    ///   - admit: called with each node libinput wants to open; false refuses it.
    package init(quirksDirectory: String? = nil,
                logPriority: LibinputLogPriority = .info,
                admit: @escaping (String) -> Bool = { _ in true },
                log: @escaping LogHandler) throws {
        self.quirksDirectory = quirksDirectory
        callbacks = Unmanaged.passRetained(Callbacks(log: log, admit: admit))
        interface = .allocate(capacity: 1)
        interface.initialize(to: libinput_interface(open_restricted: openRestricted,
                                                    close_restricted: closeRestricted))
        guard let li = libinput_path_create_context(interface, callbacks.toOpaque()) else {
            interface.deallocate()
            callbacks.release()
            throw LibinputError("libinput_path_create_context failed")
        }
        self.li = li
        libinput_log_set_handler(li, logTrampoline)
        libinput_log_set_priority(li, logPriority.libinput)
    }

    private let quirksDirectory: String?

    deinit {
        for device in devices.values { libinput_device_unref(device) }
        libinput_unref(li)
        interface.deinitialize(count: 1)
        interface.deallocate()
        callbacks.release()
    }

    /// The descriptor libinput opened for `devnode`, while it has it open.
    package func descriptor(devnode: String) -> Int32? {
        callbacks.takeUnretainedValue().descriptors[devnode]
    }

    /// The descriptor to poll for readability before calling `dispatch()`.
    package var fileDescriptor: Int32 { libinput_get_fd(li) }

    /// Adds a device node. Returns nil when libinput ignores the device (its log says why:
    /// e.g. a tablet without resolution, or a node udev has not tagged as an input device).
    package func addDevice(path: String) -> LibinputDeviceInfo? {
        let device: OpaquePointer? = withQuirksDirectory { libinput_path_add_device(li, path) }
        guard let device else { return nil }
        let info = LibinputDeviceInfo(device)
        if let old = devices.updateValue(libinput_device_ref(device), forKey: info.sysname) {
            libinput_device_unref(old)
        }
        return info
    }

    /// Removes a device added with `addDevice`; libinput then reports it removed.
    package func removeDevice(sysname: String) {
        guard let device = devices.removeValue(forKey: sysname) else { return }
        libinput_path_remove_device(device)
        libinput_device_unref(device)
    }

    /// Reads what the kernel and libinput's timers have for it. Call when the descriptor is readable.
    package func dispatch() throws {
        let rc = libinput_dispatch(li)
        if rc != 0 { throw LibinputError("libinput_dispatch failed: \(String(cString: strerror(-rc)))") }
    }

    /// Hands every queued event to `body`, in libinput's order.
    package func drainEvents(_ body: (LibinputEvent) -> Void) {
        while let event = libinput_get_event(li) {
            defer { libinput_event_destroy(event) }
            let type = libinput_event_get_type(event)
            guard let device = libinput_event_get_device(event) else { continue }
            let info: LibinputDeviceInfo
            if let cached = infoCache[device] {
                info = cached
            } else {
                info = LibinputDeviceInfo(device)
                infoCache[device] = info
            }
            switch type {
            case LIBINPUT_EVENT_DEVICE_ADDED:
                body(.deviceAdded(info))
            case LIBINPUT_EVENT_DEVICE_REMOVED:
                // A node that vanished (unplugged) is removed by libinput itself.
                if let held = devices.removeValue(forKey: info.sysname) { libinput_device_unref(held) }
                infoCache[device] = nil
                body(.deviceRemoved(info))
            default:
                // Each accessor is asked only about its own family of events: libinput logs a
                // "client bug" for any other type.
                if Self.tabletToolTypes.contains(type.rawValue), let tool = libinput_event_get_tablet_tool_event(event),
                   let tabletEvent = TabletEvent(libinput: tool, type: type) {
                    body(.tabletTool(tabletEvent, device: info))
                } else if Self.tabletPadTypes.contains(type.rawValue), let pad = libinput_event_get_tablet_pad_event(event),
                          let padEvent = PadEvent(libinput: pad, type: type) {
                    body(.tabletPad(padEvent, device: info))
                } else {
                    body(.other(type: type.rawValue, device: info))
                }
            }
        }
    }

    private static let tabletToolTypes = LIBINPUT_EVENT_TABLET_TOOL_AXIS.rawValue...LIBINPUT_EVENT_TABLET_TOOL_BUTTON.rawValue
    private static let tabletPadTypes = LIBINPUT_EVENT_TABLET_PAD_BUTTON.rawValue...LIBINPUT_EVENT_TABLET_PAD_STRIP.rawValue

    private func withQuirksDirectory<T>(_ body: () -> T) -> T {
        guard let quirksDirectory else { return body() }
        let previous = getenv("LIBINPUT_QUIRKS_DIR").map { String(cString: $0) }
        setenv("LIBINPUT_QUIRKS_DIR", quirksDirectory, 1)
        defer {
            if let previous { setenv("LIBINPUT_QUIRKS_DIR", previous, 1) } else { unsetenv("LIBINPUT_QUIRKS_DIR") }
        }
        return body()
    }
}

package struct LibinputError: Error, CustomStringConvertible, Sendable {
    package var message: String
    package init(_ message: String) { self.message = message }
    package var description: String { message }
}

extension LibinputDeviceInfo {
    init(_ device: OpaquePointer) {
        self.init(sysname: String(cString: libinput_device_get_sysname(device)),
                  name: String(cString: libinput_device_get_name(device)),
                  vendor: libinput_device_get_id_vendor(device),
                  product: libinput_device_get_id_product(device),
                  isTabletTool: libinput_device_has_capability(device, LIBINPUT_DEVICE_CAP_TABLET_TOOL) != 0,
                  isTabletPad: libinput_device_has_capability(device, LIBINPUT_DEVICE_CAP_TABLET_PAD) != 0)
        if isTabletPad { pad = PadCapabilities(libinput: device) }
    }
}

extension PadCapabilities {
    /// Counted once, when the device is added (libinput's counts never change for a device).
    init(libinput device: OpaquePointer) {
        let groups = max(0, Int(libinput_device_tablet_pad_get_num_mode_groups(device)))
        self.init(buttons: max(0, Int(libinput_device_tablet_pad_get_num_buttons(device))),
                  rings: max(0, Int(libinput_device_tablet_pad_get_num_rings(device))),
                  strips: max(0, Int(libinput_device_tablet_pad_get_num_strips(device))),
                  modes: (0..<groups).map { index in
                      libinput_device_tablet_pad_get_mode_group(device, UInt32(index))
                          .map { Int(libinput_tablet_pad_mode_group_get_num_modes($0)) } ?? 0
                  })
    }
}

extension LibinputLogPriority {
    var libinput: libinput_log_priority {
        switch self {
        case .debug: LIBINPUT_LOG_PRIORITY_DEBUG
        case .info: LIBINPUT_LOG_PRIORITY_INFO
        case .error: LIBINPUT_LOG_PRIORITY_ERROR
        }
    }

    init(_ priority: libinput_log_priority) {
        switch priority {
        case LIBINPUT_LOG_PRIORITY_DEBUG: self = .debug
        case LIBINPUT_LOG_PRIORITY_INFO: self = .info
        default: self = .error
        }
    }
}
