import Glibc
import PenInput

/// Which processes hold a device node open, read from /proc/PID/fd. Used to start a replay
/// once a reader (libinput in penkitd, say) has opened the new device, and by tests to
/// prove that penkitd never opens a device it must not read.
package enum DeviceReaders {
    /// PIDs (other than this process) with a descriptor on `devnode`.
    package static func pids(holding devnode: String) -> [Int32] {
        guard let proc = opendir("/proc") else { return [] }
        defer { closedir(proc) }
        let me = getpid()
        var found: [Int32] = []
        while let entry = readdir(proc) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard let pid = Int32(name), pid != me else { continue }
            if process(pid, holds: devnode) { found.append(pid) }
        }
        return found
    }

    package static func process(_ pid: Int32, holds devnode: String) -> Bool {
        let dir = "/proc/\(pid)/fd"
        guard let fds = opendir(dir) else { return false }
        defer { closedir(fds) }
        var target = [CChar](repeating: 0, count: 512)
        while let entry = readdir(fds) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard Int(name) != nil else { continue }
            let n = readlink("\(dir)/\(name)", &target, target.count - 1)
            guard n > 0 else { continue }
            let link = target.prefix(n).withUnsafeBufferPointer { String(decoding: UnsafeRawBufferPointer($0), as: UTF8.self) }
            if link == devnode { return true }
        }
        return false
    }
}
