import FoundationEssentials
import Glibc
import Logging
import Synchronization

/// Binds (or adopts a socket-activated) Unix socket and serves clients: the hub
/// holds them, the socket loop accepts and reads them, the input thread writes to them.
final class SocketServer: Sendable {
    let hub: Hub
    private let logger: Logger
    /// The listening socket, the socket file we bound (and its identity, so that reload and stop
    /// touch only it), and the loop serving it.
    private let state = Mutex<(listener: Int32, path: String?, identity: SocketPath.BoundSocket?, loop: SocketLoop?)>((-1, nil, nil, nil))

    init(config: DaemonConfig, settings: [String: String], links: Hub.Links, logger: Logger) throws {
        hub = Hub(epoll: try Epoll(), config: config, settings: settings, policies: try HubPolicies(config: config),
                  links: links, logger: logger)
        self.logger = logger
    }

    func reload(config: DaemonConfig) throws {
        let policies = try HubPolicies(config: config)
        let (path, identity) = state.withLock { ($0.path, $0.identity) }
        if let path {
            // Our own socket file (not a socket-activated one): mode and group apply at once.
            try SocketPath.applyPermissions(path, identity: identity, mode: config.socketMode, group: config.socketGroup)
        }
        hub.apply(config: config, policies: policies)
    }

    /// `failed`: the socket loop ended on an error while serving.
    func start(config: DaemonConfig, activatedSocket: CInt?, watchdog: Duration?,
               failed: @escaping @Sendable (any Error) -> Void) throws {
        let listener: Int32
        var boundPath: String?
        var identity: SocketPath.BoundSocket?
        if let fd = activatedSocket {
            listener = fd
            logger.info("serving on socket-activated descriptor", metadata: ["fd": "\(fd)"])
        } else {
            let path = SocketPath.resolve(configured: config.socketPath)
            try SocketPath.prepare(path)
            listener = try Self.bind(path)
            identity = SocketPath.BoundSocket(path: path)
            try SocketPath.applyPermissions(path, identity: identity, mode: config.socketMode, group: config.socketGroup)
            boundPath = path
            logger.info("serving", metadata: ["socket": "\(path)"])
        }
        _ = fcntl(listener, F_SETFL, fcntl(listener, F_GETFL) | O_NONBLOCK)
        let loop = try SocketLoop(hub: hub, listener: listener, watchdog: watchdog)
        state.withLock { $0 = (listener, boundPath, identity, loop) }
        loop.start(failed: failed)
    }

    private static func bind(_ path: String) throws -> Int32 {
        func failure(_ call: String) -> DaemonError { DaemonError("\(call) \(path): \(String(cString: strerror(errno)))") }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw failure("socket") }
        guard let address = UnixSocketAddress(path: path) else {
            Glibc.close(fd)
            throw DaemonError("socket path too long: \(path)")
        }
        // Bind with a private umask so the socket is never briefly open to everyone.
        let oldMask = umask(0o077)
        let bound = address.withSockaddr { Glibc.bind(fd, $0, UnixSocketAddress.fullLength) }
        umask(oldMask)
        guard bound == 0 else {
            let error = failure("bind")
            Glibc.close(fd)
            throw error
        }
        guard listen(fd, 64) == 0 else {
            let error = failure("listen")
            Glibc.close(fd)
            throw error
        }
        return fd
    }

    /// Tells clients, closes them, then the listening socket; removes the socket file we created.
    func stop(reason: String) {
        hub.shutdown(reason: reason)
        let (listener, path, identity, loop) = state.withLock { $0 }
        loop?.stop()
        if listener >= 0 { Glibc.close(listener) }
        if let path { SocketPath.remove(path, identity: identity) }
    }
}
