import NIOCore
import NIOWebSocket

/// What a connected page is shown: a live daemon, a replayed trace, or a test's script.
/// `run` is called once per page, in its own task, and is cancelled when the page goes away.
package protocol ViewFeed: Sendable {
    func run(into page: ViewPage) async throws
}

/// One connected page. Each `send` is one WebSocket text message of one or more JSON lines
/// (separated by `\n`); it returns once the message is handed to the socket, so a page that
/// reads slowly slows its feed instead of filling memory.
package struct ViewPage: Sendable {
    let outbound: NIOAsyncChannelOutboundWriter<WebSocketFrame>
    let allocator: ByteBufferAllocator

    package func send(_ lines: String) async throws {
        let frame = WebSocketFrame(fin: true, opcode: .text, data: allocator.buffer(string: lines))
        try await outbound.write(frame)
    }
}
