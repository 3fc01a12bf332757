import NIOCore
import NIOWebSocket

/// One page's WebSocket: the feed writes to it while the page's own frames are answered
/// (ping → pong, close → close).
struct ViewWebSocketSession {
    let channel: NIOAsyncChannel<WebSocketFrame, WebSocketFrame>
    let feed: any ViewFeed

    func run() async throws {
        try await channel.executeThenClose { inbound, outbound in
            let page = ViewPage(outbound: outbound, allocator: channel.channel.allocator)
            // The page leaving ends the session; the feed ending does not: the page keeps what it drew.
            try await withThrowingTaskGroup(of: Bool.self) { group in
                group.addTask {
                    for try await frame in inbound {
                        switch frame.opcode {
                        case .ping:
                            try await outbound.write(WebSocketFrame(fin: true, opcode: .pong, data: frame.unmaskedData))
                        case .connectionClose:
                            var data = frame.unmaskedData
                            let code = data.readSlice(length: 2) ?? ByteBuffer()
                            try await outbound.write(WebSocketFrame(fin: true, opcode: .connectionClose, data: code))
                            return true
                        default:
                            break  // The page only listens; anything it sends is ignored.
                        }
                    }
                    return true
                }
                group.addTask {
                    try await feed.run(into: page)
                    return false
                }
                while let pageLeft = try await group.next() {
                    if pageLeft {
                        group.cancelAll()
                        return
                    }
                }
            }
        }
    }
}
