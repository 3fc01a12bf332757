import NIOCore
import NIOHTTP1

/// One plain HTTP connection: each request gets a page, a script or style, a drawing endpoint's
/// answer, or a refusal.
struct ViewHTTPSession {
    let channel: NIOAsyncChannel<HTTPServerRequestPart, HTTPPart<HTTPResponseHead, ByteBuffer>>
    let access: ViewAccess
    let assets: ViewAssets
    /// penkitd, for the settings page; nil for a replay.
    let settings: (any ViewSettingsLink)?
    /// The answer to a refused WebSocket upgrade, whose head this session never sees.
    let refusedUpgrade: ViewResponse?

    func run() async throws {
        try await channel.executeThenClose { inbound, outbound in
            if let refusedUpgrade {
                let head = HTTPResponseHead(version: .http1_1, status: refusedUpgrade.status,
                                            headers: refusedUpgrade.headers(keepAlive: false))
                try await outbound.write(contentsOf: [.head(head), .body(channel.channel.allocator.buffer(bytes: refusedUpgrade.body)), .end(nil)])
                return
            }
            // A POST's body is gathered until its end, bounded; every other request is answered at its head.
            var post: (head: HTTPRequestHead, body: [UInt8])?
            for try await part in inbound {
                let answer: (HTTPRequestHead, ViewResponse)
                switch part {
                case .head(let head) where head.method == .POST:
                    if let refusal = Self.checkPost(head, access: access) {
                        answer = (head, refusal)
                    } else {
                        post = (head, [])
                        continue
                    }
                case .head(let head):
                    answer = (head, ViewResponse.route(method: head.method, uri: head.uri, host: head.headers.first(name: "Host"),
                                                      access: access, assets: assets))
                case .body(var buffer):
                    guard var current = post else { continue }
                    if current.body.count + buffer.readableBytes > CanvasEndpoints.maximumBodyBytes {
                        answer = (current.head, Self.tooLarge)
                    } else {
                        current.body += buffer.readBytes(length: buffer.readableBytes) ?? []
                        post = current
                        continue
                    }
                case .end:
                    guard let current = post else { continue }
                    let path = ViewAccess.path(of: current.head.uri)
                    answer = (current.head, SettingsEndpoints.handles(path)
                        ? await SettingsEndpoints.respond(uri: current.head.uri, body: current.body, link: settings)
                        : CanvasEndpoints.respond(uri: current.head.uri, body: current.body))
                    post = nil
                }
                let (head, response) = answer
                let responseHead = HTTPResponseHead(version: head.version, status: response.status,
                                                    headers: response.headers(keepAlive: head.isKeepAlive))
                var parts: [HTTPPart<HTTPResponseHead, ByteBuffer>] = [.head(responseHead)]
                if head.method != .HEAD { parts.append(.body(channel.channel.allocator.buffer(bytes: response.body))) }
                parts.append(.end(nil))
                try await outbound.write(contentsOf: parts)
                if response.close || !head.isKeepAlive { return }
            }
        }
    }

    static let tooLarge = ViewResponse.refused(
        .payloadTooLarge, "a drawing request's body may hold at most \(CanvasEndpoints.maximumBodyBytes >> 20) MiB")

    /// Refuses a POST at its head: the access rules (token, Host, Origin), the path, and a declared
    /// length over the bound (answered before a byte of the body is read).
    static func checkPost(_ head: HTTPRequestHead, access: ViewAccess) -> ViewResponse? {
        if let refusal = access.checkPost(host: head.headers.first(name: "Host"), origin: head.headers.first(name: "Origin"), uri: head.uri) {
            return .refused(.forbidden, refusal.reason)
        }
        let path = ViewAccess.path(of: head.uri)
        guard CanvasEndpoints.handles(path) || SettingsEndpoints.handles(path) else {
            return .refused(.methodNotAllowed, "POST goes to /drawing/save, /drawing/open, /drawing/svg, /settings/state or /settings/change only")
        }
        if let length = head.headers.first(name: "Content-Length").flatMap({ Int($0) }), length > CanvasEndpoints.maximumBodyBytes {
            return tooLarge
        }
        return nil
    }
}
