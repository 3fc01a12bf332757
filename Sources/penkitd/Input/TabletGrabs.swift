import CLinuxCalls
import Glibc
import PenInputLinux

/// EVIOCGRAB on the descriptors penkitd's libinput reads tablets through, so that while the
/// virtual tablet carries a pen no other reader (the compositor) gets the real device's events:
/// one pen, one cursor.
///
/// The kernel drops a grab when its descriptor closes, so if penkitd exits, crashes or is killed
/// the tablet works directly again. A grab is taken and released only while the kernel shows no
/// tool in proximity: taken mid-stroke it would leave the compositor with a pen down for ever, and
/// released mid-stroke it would hand the compositor a stroke it never saw begin.
/// Used by the input thread alone.
final class TabletGrabs {
    enum Outcome: Equatable {
        case grabbed
        /// A tool is in proximity or touching: try again when it has left.
        case toolPresent
        case failed(String)
    }

    private let context: LibinputContext
    private var nodes: [Int: String] = [:]
    private(set) var grabbed: Set<Int> = []
    /// Told of every grab taken and let go (the flight recorder, whose descriptor gets nothing while one holds).
    private let changed: (_ device: Int, _ grabbed: Bool) -> Void

    init(context: LibinputContext, changed: @escaping (_ device: Int, _ grabbed: Bool) -> Void = { _, _ in }) {
        self.context = context
        self.changed = changed
    }

    /// The node libinput reads device `id` from (LiveSource tells it when the device is added).
    func register(device id: Int, devnode: String) { nodes[id] = devnode }

    /// Forgets a removed device; its descriptor closed with it, and the grab with that.
    func unregister(device id: Int) {
        nodes[id] = nil
        grabbed.remove(id)
    }

    func grab(device id: Int) -> Outcome {
        if grabbed.contains(id) { return .grabbed }
        guard let node = nodes[id], let fd = context.descriptor(devnode: node) else {
            return .failed("libinput has no descriptor for the device")
        }
        let present = penkit_evdev_tool_present(fd)
        if present < 0 { return .failed("EVIOCGKEY: \(String(cString: strerror(-present)))") }
        if present == 1 { return .toolPresent }
        let rc = penkit_evdev_grab(fd, 1)
        if rc != 0 { return .failed("EVIOCGRAB: \(String(cString: strerror(-rc)))") }
        grabbed.insert(id)
        changed(id, true)
        return .grabbed
    }

    /// Lets other readers have the device again. Returns false if a tool is in proximity (the grab
    /// stays, unless `force`: penkitd stopping, where the virtual pen has been lifted already).
    @discardableResult
    func release(device id: Int, force: Bool = false) -> Bool {
        guard grabbed.contains(id) else { return true }
        guard let node = nodes[id], let fd = context.descriptor(devnode: node) else {
            grabbed.remove(id)
            return true
        }
        if !force && penkit_evdev_tool_present(fd) == 1 { return false }
        _ = penkit_evdev_grab(fd, 0)
        grabbed.remove(id)
        changed(id, false)
        return true
    }

    func releaseAll() {
        for id in grabbed { release(device: id, force: true) }
    }
}
