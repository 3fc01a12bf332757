import Foundation

/// Where the socket lives when no path is configured:
/// `$XDG_RUNTIME_DIR/penkit/penkit.sock` for a user, `/run/penkit/penkit.sock` for root.
enum SocketPath {
    static func resolve(configured: String?, environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let configured { return configured }
        if getuid() != 0, let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty {
            return runtime + "/penkit/penkit.sock"
        }
        return "/run/penkit/penkit.sock"
    }

    /// Creates the socket's directory (mode 0755) if needed and removes a stale socket file.
    static func prepare(_ path: String) throws {
        let dir = (path as NSString).deletingLastPathComponent
        if !dir.isEmpty {
            try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o755])
        }
        var st = stat()
        if lstat(path, &st) == 0 {
            guard (st.st_mode & S_IFMT) == S_IFSOCK else {
                throw DaemonError("\(path) exists and is not a socket; refusing to replace it")
            }
            unlink(path)
        }
    }

    /// Sets mode and group on the bound socket file.
    static func applyPermissions(_ path: String, mode: UInt32, group: String?) throws {
        if let group {
            guard let gid = Identity.groupID(group) else { throw DaemonError("unknown socket group \"\(group)\"") }
            guard chown(path, uid_t.max, gid) == 0 else {
                throw DaemonError("cannot give \(path) to group \(group): \(String(cString: strerror(errno)))")
            }
        }
        guard chmod(path, mode_t(mode)) == 0 else {
            throw DaemonError("cannot chmod \(path): \(String(cString: strerror(errno)))")
        }
    }
}

struct DaemonError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
