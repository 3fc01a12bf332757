import Glibc
import Logging
import NIOCore
import PenKit

/// Reads one client's newline-delimited requests. Checks the peer's credentials
/// first; a line over 64 KiB is fatal for that client, any other bad line gets
/// an error and the connection stays usable. Nothing here touches other clients.
/// A client that sends requests without reading the replies is not read from while
/// NIO's buffer for it is full, so its replies cannot pile up in penkitd's memory.
final class ClientHandler: ChannelInboundHandler, @unchecked Sendable {
    typealias InboundIn = ByteBuffer

    private let hub: Hub
    private let policy: @Sendable () -> PeerPolicy
    private let logger: Logger
    private var session: ClientSession?
    private var pending: [UInt8] = []
    private var refusedOrClosed = false
    /// Reading is paused because the client does not read its replies.
    private var readingPaused = false

    init(hub: Hub, policy: @escaping @Sendable () -> PeerPolicy, logger: Logger) {
        self.hub = hub
        self.policy = policy
        self.logger = logger
    }

    func channelActive(context: ChannelHandlerContext) {
        let channel = context.channel
        guard let provider = channel as? SocketOptionProvider else {
            refuse(channel, reason: "cannot read peer credentials")
            return
        }
        let credentials: EventLoopFuture<PeerCredentials> = provider.unsafeGetSocketOption(
            level: SocketOptionLevel(SOL_SOCKET), name: SocketOptionName(SO_PEERCRED))
        credentials.whenComplete { result in
            switch result {
            case .failure(let error):
                self.refuse(channel, reason: "cannot read peer credentials: \(error)")
            case .success(let peer):
                guard self.policy().allows(peer) else {
                    self.logger.warning("refused peer", metadata: ["pid": "\(peer.pid)", "uid": "\(peer.uid)", "gid": "\(peer.gid)"])
                    self.refuse(channel, reason: "uid \(peer.uid) is not allowed to use penkitd")
                    return
                }
                guard !self.refusedOrClosed, !self.hub.stopping else { return }
                guard self.hub.clientCount < self.hub.maxClients else {
                    self.logger.warning("too many clients; closing a new connection",
                                        metadata: ["pid": "\(peer.pid)", "uid": "\(peer.uid)", "max-clients": "\(self.hub.maxClients)"])
                    self.refuse(channel, code: .tooManyClients,
                                reason: "penkitd already serves \(self.hub.maxClients) clients (max-clients)")
                    return
                }
                self.session = self.hub.addClient(channel: channel, peer: peer)
                self.processLines()
            }
        }
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        refusedOrClosed = true
        if let session { hub.removeClient(session) }
        session = nil
        context.fireChannelInactive()
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if let session, context.channel.isWritable {
            session.drain()
            session.flushIfNeeded()
            if readingPaused { processLines() }
        }
        context.fireChannelWritabilityChanged()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !refusedOrClosed else { return }
        var buffer = unwrapInboundIn(data)
        pending.append(contentsOf: buffer.readBytes(length: buffer.readableBytes) ?? [])
        if session != nil { processLines() } else if pending.count > PenProtocol.maxLineBytes + 1 {
            refuse(context.channel, reason: "too much input before the connection was accepted")
        }
    }

    /// The client closed its write side: no more requests, but it still reads what it subscribed to.
    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let event = event as? ChannelEvent, event == .inputClosed {
            logger.debug("client closed its input; still serving it", metadata: ["client": "\(session?.id ?? 0)"])
            return
        }
        context.fireUserInboundEventTriggered(event)
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        logger.debug("client error", metadata: ["error": "\(error)"])
        context.close(promise: nil)
    }

    private func processLines() {
        guard let session else { return }
        // Lines are taken from the front by index and the handled prefix removed once on the
        // way out: removing each line as it is handled is quadratic in a burst of many lines.
        var start = pending.startIndex
        defer { pending.removeSubrange(..<min(start, pending.endIndex)) }
        while let newline = pending[start...].firstIndex(of: UInt8(ascii: "\n")) {
            if newline - start > PenProtocol.maxLineBytes { break }
            guard session.channel.isWritable else {
                // Replies would only queue up: stop reading until the client reads.
                readingPaused = true
                try? session.channel.syncOptions?.setOption(.autoRead, value: false)
                session.flushIfNeeded()
                return
            }
            var line = Array(pending[start..<newline])
            start = newline + 1
            if line.last == UInt8(ascii: "\r") { line.removeLast() }
            if line.isEmpty { continue }
            handle(line, session: session)
            if session.closing { return }
        }
        if readingPaused {
            readingPaused = false
            try? session.channel.syncOptions?.setOption(.autoRead, value: true)
        }
        if pending.count - start > PenProtocol.maxLineBytes {
            refusedOrClosed = true
            session.close(lastLine: ErrorMessage(code: .lineTooLong,
                                                 message: "request lines are limited to \(PenProtocol.maxLineBytes) bytes",
                                                 fatal: true))
            pending = []
            start = 0
        }
        session.flushIfNeeded()
    }

    private func handle(_ line: [UInt8], session: ClientSession) {
        switch SubscribeRequest.parse(line) {
        case .success(let request):
            hub.subscribe(session, request)
        case .failure(let error):
            logger.debug("bad client line", metadata: ["client": "\(session.id)", "code": "\(error.code.rawValue)"])
            session.sendControl(error)
        }
    }

    private func refuse(_ channel: Channel, code: ErrorMessage.Code = .refused, reason: String) {
        refusedOrClosed = true
        let buffer = ClientSession.lineBuffer(ErrorMessage(code: code, message: reason, fatal: true), channel: channel)
        channel.writeAndFlush(buffer).whenComplete { _ in channel.close(promise: nil) }
    }
}
