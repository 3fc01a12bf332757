import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

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

    /// The directory part of a path, as NSString's deletingLastPathComponent gave it: "" for a
    /// bare name, "/" for a name at the root; repeated and trailing slashes are one.
    static func directory(of path: String) -> String {
        var rest = Substring(path)
        while rest.count > 1 && rest.hasSuffix("/") { rest.removeLast() }
        guard let slash = rest.lastIndex(of: "/") else { return "" }
        var dir = rest[..<slash]
        while dir.count > 1 && dir.hasSuffix("/") { dir.removeLast() }
        return dir.isEmpty ? "/" : String(dir)
    }

    /// Creates the socket's directory (mode 0755) if needed and removes a stale socket file.
    /// A socket that still accepts connections belongs to a running server (a second penkitd
    /// would take it over and leave the first unreachable): that is refused.
    static func prepare(_ path: String) throws {
        let dir = directory(of: path)
        if !dir.isEmpty {
            try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o755])
        }
        var st = stat()
        if lstat(path, &st) == 0 {
            guard (st.st_mode & S_IFMT) == S_IFSOCK else {
                throw DaemonError("\(path) exists and is not a socket; refusing to replace it")
            }
            switch probe(path) {
            case 0:
                throw DaemonError("\(path) is in use: a server (another penkitd?) accepts connections on it; refusing to take it over (stop it, or give penkitd another --socket)")
            case ECONNREFUSED:
                unlink(path)  // stale: nobody listens
            case let code:
                throw DaemonError("cannot tell whether \(path) is in use (\(String(cString: strerror(code)))); refusing to replace it")
            }
        }
    }

    /// Connects to `path`: 0 if something accepts, else the errno.
    private static func probe(_ path: String) -> Int32 {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return errno }
        defer { close(fd) }
        guard let address = UnixSocketAddress(path: path) else { return ENAMETOOLONG }
        let result = address.withSockaddr { connect(fd, $0, UnixSocketAddress.fullLength) }
        return result == 0 ? 0 : errno
    }

    /// The socket file's identity right after bind, so that penkitd only ever changes or
    /// removes the socket it created, never whatever later took its path.
    struct BoundSocket: Equatable {
        var device: UInt64
        var inode: UInt64

        init?(path: String) {
            var st = stat()
            guard lstat(path, &st) == 0, (st.st_mode & S_IFMT) == S_IFSOCK else { return nil }
            device = UInt64(st.st_dev)
            inode = UInt64(st.st_ino)
        }
    }

    /// Sets mode and group on the bound socket file, never through a symlink: the path must
    /// still be the socket penkitd bound (`identity`), and neither call follows a link.
    static func applyPermissions(_ path: String, identity: BoundSocket?, mode: UInt32, group: String?) throws {
        guard let identity, BoundSocket(path: path) == identity else {
            throw DaemonError("\(path) is no longer the socket penkitd bound (replaced, or a symlink); not changing its mode or group")
        }
        if let group {
            guard let gid = Identity.groupID(group) else { throw DaemonError("unknown socket group \"\(group)\"") }
            guard lchown(path, uid_t.max, gid) == 0 else {
                throw DaemonError("cannot give \(path) to group \(group): \(String(cString: strerror(errno)))")
            }
        }
        guard fchmodat(AT_FDCWD, path, mode_t(mode), AT_SYMLINK_NOFOLLOW) == 0 else {
            throw DaemonError("cannot chmod \(path): \(String(cString: strerror(errno)))")
        }
    }

    /// Removes the socket file if it is still the one penkitd bound.
    static func remove(_ path: String, identity: BoundSocket?) {
        if let identity, BoundSocket(path: path) == identity { unlink(path) }
    }
}

struct DaemonError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
