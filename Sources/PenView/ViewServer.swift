import NIOCore
import NIOHTTP1
import NIOPosix
import NIOWebSocket
import Synchronization

/// `penkit view`'s server: its pages, their scripts and style and the drawing endpoints over HTTP,
/// and the pages' WebSocket, on a loopback address, with every request checked by `ViewAccess`.
package final class ViewServer: Sendable {
    enum Connection: Sendable {
        case webSocket(NIOAsyncChannel<WebSocketFrame, WebSocketFrame>)
        /// `refusedUpgrade` holds the reason when this connection's WebSocket upgrade was refused.
        case http(NIOAsyncChannel<HTTPServerRequestPart, HTTPPart<HTTPResponseHead, ByteBuffer>>, refusedUpgrade: RefusedUpgrade)
    }

    package let access: ViewAccess
    package let address: ListenAddress
    /// The port actually bound (the one asked for, or the one the system chose for 0).
    package let port: Int
    private let listener: NIOAsyncChannel<EventLoopFuture<Connection>, Never>
    private let assets: ViewAssets
    /// penkitd, for the settings page (`/settings`); nil for a replay.
    private let settings: (any ViewSettingsLink)?
    private let feed: any ViewFeed
    private let pages = Atomic<Int>(0)
    private let lastPageLeft = Mutex<ContinuousClock.Instant>(.now)

    /// The URL to open: the canvas with its token.
    package var url: String { "http://\(address.hostLiteral):\(port)/?token=\(access.token)" }
    /// The tablet-space debug view: what a client receives, with the panel (docs/view.md).
    package var debugURL: String { "http://\(address.hostLiteral):\(port)/debug?token=\(access.token)" }
    /// The surface page: draws penkit's ink where the browser's own pen is (docs/apps.md).
    package var surfaceURL: String { "http://\(address.hostLiteral):\(port)/surface?token=\(access.token)" }
    /// The settings page: penkitd's settings per tablet and per tool, changed live.
    package var settingsURL: String { "http://\(address.hostLiteral):\(port)/settings?token=\(access.token)" }

    /// Binds now (so that the URL can be printed before `run`); serves when `run` is called.
    package init(address: ListenAddress, feed: any ViewFeed, settings: (any ViewSettingsLink)? = nil,
                 token: String = ViewAccess.makeToken()) async throws {
        self.address = address
        self.feed = feed
        self.settings = settings
        self.assets = ViewAssets(token: token)
        // The access rules need the bound port, which exists only after bind; the upgrade check
        // runs later, on requests, so it reads them from this box once they are set.
        let rules = AccessBox()
        let listener = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .bind(host: address.ip, port: address.port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try Self.configure(channel, rules: rules)
                }
            }
        guard let port = listener.channel.localAddress?.port else {
            try? await listener.channel.close()
            throw ViewServerError(description: "the listening socket has no port")
        }
        self.port = port
        self.listener = listener
        self.access = ViewAccess(token: token, address: address, port: port)
        rules.set(access)
    }

    /// How many pages are connected now.
    package var connectedPages: Int { pages.load(ordering: .relaxed) }

    /// How long no page has been connected (zero while one is).
    package var idleDuration: Duration {
        connectedPages > 0 ? .zero : lastPageLeft.withLock { ContinuousClock.now - $0 }
    }

    /// Serves until cancelled. A failing connection ends only itself.
    package func run() async throws {
        try await withThrowingDiscardingTaskGroup { group in
            try await listener.executeThenClose { inbound in
                for try await connection in inbound {
                    group.addTask { await self.serve(connection) }
                }
            }
        }
    }

    private static func configure(_ channel: any Channel, rules: AccessBox) throws -> EventLoopFuture<Connection> {
        let refusedUpgrade = RefusedUpgrade()
        let upgrader = NIOTypedWebSocketServerUpgrader<Connection>(
            maxFrameSize: 1 << 16,
            shouldUpgrade: { channel, head in
                // nil refuses the upgrade. NIO then hands the HTTP path the request's remaining parts
                // but not its head (apple/swift-nio#2632), so the reason goes along in `refusedUpgrade`.
                guard let access = rules.get() else { return channel.eventLoop.makeSucceededFuture(nil) }
                let refusal: ViewResponse?
                if let denied = access.checkWebSocket(host: head.headers.first(name: "Host"),
                                                      origin: head.headers.first(name: "Origin"), uri: head.uri) {
                    refusal = .refused(.forbidden, denied.reason)
                } else if ViewAccess.path(of: head.uri) != "/ws" {
                    refusal = .refused(.notFound, "penkit view's WebSocket is /ws")
                } else {
                    refusal = nil
                }
                if let refusal {
                    refusedUpgrade.set(refusal)
                    return channel.eventLoop.makeSucceededFuture(nil)
                }
                return channel.eventLoop.makeSucceededFuture(HTTPHeaders())
            },
            upgradePipelineHandler: { channel, _ in
                channel.eventLoop.makeCompletedFuture {
                    .webSocket(try NIOAsyncChannel<WebSocketFrame, WebSocketFrame>(wrappingChannelSynchronously: channel))
                }
            }
        )
        let configuration = NIOTypedHTTPServerUpgradeConfiguration<Connection>(
            upgraders: [upgrader],
            notUpgradingCompletionHandler: { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(HTTPResponsePartHandler())
                    return .http(try NIOAsyncChannel(wrappingChannelSynchronously: channel), refusedUpgrade: refusedUpgrade)
                }
            }
        )
        return try channel.pipeline.syncOperations.configureUpgradableHTTPServerPipeline(
            configuration: .init(upgradeConfiguration: configuration))
    }

    private func serve(_ connection: EventLoopFuture<Connection>) async {
        do {
            switch try await connection.get() {
            case .webSocket(let channel):
                pages.add(1, ordering: .relaxed)
                defer {
                    lastPageLeft.withLock { $0 = .now }
                    pages.subtract(1, ordering: .relaxed)
                }
                try await ViewWebSocketSession(channel: channel, feed: feed).run()
            case .http(let channel, let refusedUpgrade):
                try await ViewHTTPSession(channel: channel, access: access, assets: assets, settings: settings,
                                          refusedUpgrade: refusedUpgrade.get()).run()
            }
        } catch {
            // One page's broken connection is not the server's failure.
        }
    }
}

package struct ViewServerError: Error, CustomStringConvertible {
    package var description: String
}

/// The access rules, set once after bind and read by connections' upgrade checks.
private final class AccessBox: Sendable {
    private let value = Mutex<ViewAccess?>(nil)
    func set(_ access: ViewAccess) { value.withLock { $0 = access } }
    func get() -> ViewAccess? { value.withLock { $0 } }
}

/// Why a connection's WebSocket upgrade was refused, from the upgrade check to the HTTP session.
final class RefusedUpgrade: Sendable {
    private let value = Mutex<ViewResponse?>(nil)
    func set(_ response: ViewResponse) { value.withLock { $0 = response } }
    func get() -> ViewResponse? { value.withLock { $0 } }
}

/// Turns the response parts the HTTP session writes (with plain buffers) into the pipeline's parts.
private final class HTTPResponsePartHandler: ChannelOutboundHandler {
    typealias OutboundIn = HTTPPart<HTTPResponseHead, ByteBuffer>
    typealias OutboundOut = HTTPServerResponsePart

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch Self.unwrapOutboundIn(data) {
        case .head(let head): context.write(Self.wrapOutboundOut(.head(head)), promise: promise)
        case .body(let buffer): context.write(Self.wrapOutboundOut(.body(.byteBuffer(buffer))), promise: promise)
        case .end(let trailers): context.write(Self.wrapOutboundOut(.end(trailers)), promise: promise)
        }
    }
}
