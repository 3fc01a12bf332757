import NIOCore
import NIOHTTP1

/// One plain HTTP connection: each request gets the page, its script or style, or a refusal.
struct ViewHTTPSession {
    let channel: NIOAsyncChannel<HTTPServerRequestPart, HTTPPart<HTTPResponseHead, ByteBuffer>>
    let access: ViewAccess
    let assets: ViewAssets
    /// The answer to a refused WebSocket upgrade, whose head this session never sees.
    let refusedUpgrade: ViewResponse?

    func run() async throws {
        try await channel.executeThenClose { inbound, outbound in
            if let refusedUpgrade {
                let head = HTTPResponseHead(version: .http1_1, status: refusedUpgrade.status,
                                            headers: refusedUpgrade.headers(keepAlive: false))
                try await outbound.write(contentsOf: [.head(head), .body(channel.channel.allocator.buffer(string: refusedUpgrade.body)), .end(nil)])
                return
            }
            for try await part in inbound {
                guard case .head(let head) = part else { continue }
                let response = ViewResponse.route(method: head.method, uri: head.uri,
                                                  host: head.headers.first(name: "Host"),
                                                  access: access, assets: assets)
                let responseHead = HTTPResponseHead(version: head.version, status: response.status,
                                                    headers: response.headers(keepAlive: head.isKeepAlive))
                var parts: [HTTPPart<HTTPResponseHead, ByteBuffer>] = [.head(responseHead)]
                if head.method != .HEAD { parts.append(.body(channel.channel.allocator.buffer(string: response.body))) }
                parts.append(.end(nil))
                try await outbound.write(contentsOf: parts)
                if response.close || !head.isKeepAlive { return }
            }
        }
    }
}
