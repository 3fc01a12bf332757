import Foundation
import Logging
import NIOCore
import NIOPosix

/// Binds (or adopts a socket-activated) Unix socket and serves clients on one
/// event loop; the Hub lives on the same loop, so no client state needs a lock.
final class SocketServer: @unchecked Sendable {
    let group: MultiThreadedEventLoopGroup
    let hub: Hub
    private var serverChannel: Channel?
    private let lock = NSLock()
    private var policy: PeerPolicy
    /// client-live-buffer-bytes, for connections accepted from now on.
    private var liveBufferBytes: Int
    private let logger: Logger
    private(set) var path: String?
    /// The socket file as bound, so that reload and stop touch only it.
    private var identity: SocketPath.BoundSocket?

    init(config: DaemonConfig, settings: [String: String], logger: Logger, probe: LatencyProbe? = nil) throws {
        group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        hub = Hub(eventLoop: group.next(), config: config, settings: settings, logger: logger, probe: probe)
        policy = try PeerPolicy(config: config)
        liveBufferBytes = config.clientLiveBufferBytes
        self.logger = logger
    }

    func currentPolicy() -> PeerPolicy {
        lock.lock(); defer { lock.unlock() }
        return policy
    }

    func reload(config: DaemonConfig) throws {
        let newPolicy = try PeerPolicy(config: config)
        if let path {
            // Our own socket file (not a socket-activated one): mode and group apply at once.
            try SocketPath.applyPermissions(path, identity: identity, mode: config.socketMode, group: config.socketGroup)
        }
        lock.lock(); policy = newPolicy; liveBufferBytes = config.clientLiveBufferBytes; lock.unlock()
        hub.eventLoop.execute { self.hub.apply(config: config) }
    }

    private func currentWaterMark() -> ChannelOptions.Types.WriteBufferWaterMark {
        lock.lock(); defer { lock.unlock() }
        return .init(low: liveBufferBytes / 2, high: liveBufferBytes)
    }

    func start(config: DaemonConfig, activatedSocket: CInt?) throws {
        let hub = self.hub
        let logger = self.logger
        let policy: @Sendable () -> PeerPolicy = { [unowned self] in self.currentPolicy() }
        let water: @Sendable () -> ChannelOptions.Types.WriteBufferWaterMark = { [unowned self] in self.currentWaterMark() }
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 64)
            // A client that shuts down its write side still reads: it keeps its subscription
            // until penkitd is done with it (ClientHandler ignores the end of its input).
            .childChannelOption(.allowRemoteHalfClosure, value: true)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.syncOptions?.setOption(.writeBufferWaterMark, value: water())
                    try channel.pipeline.syncOperations.addHandler(ClientHandler(hub: hub, policy: policy, logger: logger))
                }
            }
        if let fd = activatedSocket {
            serverChannel = try bootstrap.withBoundSocket(fd).wait()
            logger.info("serving on socket-activated descriptor", metadata: ["fd": "\(fd)"])
        } else {
            let path = SocketPath.resolve(configured: config.socketPath)
            try SocketPath.prepare(path)
            // Bind with a private umask so the socket is never briefly open to everyone.
            let oldMask = umask(0o077)
            defer { umask(oldMask) }
            serverChannel = try bootstrap.bind(unixDomainSocketPath: path).wait()
            identity = SocketPath.BoundSocket(path: path)
            try SocketPath.applyPermissions(path, identity: identity, mode: config.socketMode, group: config.socketGroup)
            self.path = path
            logger.info("serving", metadata: ["socket": "\(path)"])
        }
    }

    /// Tells clients, closes them, then the listening socket; removes the socket file we created.
    func stop(reason: String) {
        _ = try? hub.shutdown(reason: reason).wait()
        _ = try? serverChannel?.close().wait()
        if let path { SocketPath.remove(path, identity: identity) }
        try? group.syncShutdownGracefully()
    }
}
