import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Synchronization

/// A client of penkitd: connects to its Unix socket, subscribes, and delivers
/// what the server sends as an async sequence. One reader thread per client
/// stamps each line with its arrival time before anything else happens to it.
///
/// **Bounded.** The client holds at most `bufferLines` received lines that the app has not
/// taken yet. When the app stops iterating, the reader thread stops reading the socket, so
/// the backlog stays in the kernel and then in penkitd, whose rules apply: live frames are
/// dropped for this client (and counted in a `dropped` message), strokes are never dropped
/// silently: past `client-buffer-bytes` penkitd sends a fatal `overflow` error (`.overflow`, with
/// `lastSentSeq`) and closes, and the sequence delivers that error and ends. If the
/// connection ends without a `shutdown` or a fatal `error` line (penkitd killed, or it gave
/// up on a client that stayed stopped so long that the overflow line itself was lost), the
/// sequence ends by throwing, so that lost strokes never pass unnoticed.
///
/// **Resuming.** After penkitd restarts, or cuts the client off, `resumed(_:)` connects again and
/// subscribes with `since` set to `resumeSince`: the app then gets every stroke it had not taken,
/// the one it was cut off in the middle of included (penkitd's journal keeps them), and none twice.
public final class PenKitClient: Sendable {
    public struct Error: Swift.Error, CustomStringConvertible, Sendable {
        public var description: String
        /// Why a connection failed, in plain words (set when `connect` failed).
        public var reason: String?

        public init(description: String, reason: String? = nil) {
            self.description = description
            self.reason = reason
        }
    }

    /// Lines held for the app by default (about 0.5 MiB of frame lines, which average ~530 bytes).
    public static let defaultBufferLines = 1024

    private let fd: Int32
    private let state: ReaderState
    /// The socket this client connected to (the one discovery chose, when it did).
    public let path: String
    /// Every line the server sends, with its arrival time; ends when the server closes.
    public let lines: AsyncThrowingStream<ReceivedLine, Swift.Error>

    /// Connects to the first penkitd that answers where clients look for it (`DaemonDiscovery`):
    /// `$PENKIT_SOCKET`, the user service's socket, then the system service's.
    public static func discover(environment: [String: String] = ProcessInfo.processInfo.environment,
                                bufferLines: Int = PenKitClient.defaultBufferLines) throws -> PenKitClient {
        try DaemonDiscovery.connect(environment: environment, bufferLines: bufferLines)
    }

    /// - Parameter bufferLines: received lines held until the app takes them; past that the
    ///   client stops reading the socket (see the type's documentation).
    public init(path: String, bufferLines: Int = PenKitClient.defaultBufferLines) throws {
        precondition(bufferLines > 0, "bufferLines must be positive")
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw Error(description: "socket: \(String(cString: strerror(errno)))") }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            close(fd)
            throw Error(description: "socket path too long: \(path)")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard result == 0 else {
            let reason = PenKitClient.connectFailure(errno)
            close(fd)
            throw Error(description: "cannot connect to penkitd at \(path): \(reason)", reason: reason)
        }
        // The reader thread owns a descriptor of its own, so that closing ours never races its read().
        let readerFD = dup(fd)
        guard readerFD >= 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw Error(description: "dup: \(reason)")
        }
        self.fd = fd
        self.path = path
        let state = ReaderState(capacity: bufferLines)
        self.state = state
        // `unbounded` is safe here: the reader yields only after taking one of `capacity` slots,
        // and a slot comes back only when the app takes a line.
        let (base, continuation) = AsyncThrowingStream<ReceivedLine, Swift.Error>.makeStream(bufferingPolicy: .unbounded)
        continuation.onTermination = { _ in state.terminate() }
        let iterator = IteratorBox(base.makeAsyncIterator())
        self.lines = AsyncThrowingStream(unfolding: {
            let line = try await iterator.next()
            if let line {
                state.slots.signal()
                state.resume.withLock { $0.took(line.text) }
            }
            return line
        })
        DetachedThread.start(name: "penkit-client") { PenKitClient.readLoop(fd: readerFD, state: state, into: continuation) }
    }

    deinit {
        state.terminate()
        shutdown(fd, Int32(SHUT_RDWR))
        close(fd)
    }

    /// The server's messages, typed; lines that are not JSON objects are skipped.
    public var messages: AsyncThrowingCompactMapSequence<AsyncThrowingStream<ReceivedLine, Swift.Error>, PenMessage> {
        lines.compactMap { PenMessage(line: $0.text) }
    }

    /// Subscribes. Long strokes are asked for in parts (`strokeParts`, bounded lines) unless told
    /// otherwise; either way the app gets each stroke as one whole `stroke` line: the reader puts
    /// parts back together (`StrokeAssembler`) before the line is held for the app.
    public func subscribe(_ channels: ChannelSet, since: UInt64? = nil, strokeParts: Bool = true) throws {
        try send(SubscribeRequest(channels: channels, since: since, strokeParts: strokeParts).jsonLine())
        state.resume.withLock { $0.subscribed(since: since) }
    }

    /// The `since` that brings every stroke the app has not taken from this client, and none it
    /// has: the seq of the last stroke it took, or where the session started (the `since` it
    /// subscribed with, or `hello`'s `lastSeq`). Nil before the app took `hello`.
    public var resumeSince: UInt64? { state.resume.withLock { $0.since } }

    /// A new connection to the same socket, subscribed to `channels` from `resumeSince`: after a
    /// restart of penkitd, or a cut-off, the app goes on with the strokes it had not taken.
    public func resumed(_ channels: ChannelSet, strokeParts: Bool = true,
                        bufferLines: Int = PenKitClient.defaultBufferLines) throws -> PenKitClient {
        let next = try PenKitClient(path: path, bufferLines: bufferLines)
        try next.subscribe(channels, since: resumeSince ?? 0, strokeParts: strokeParts)
        return next
    }

    /// Sends one raw line (a newline is appended).
    public func send(_ line: String) throws {
        var bytes = Array(line.utf8)
        bytes.append(UInt8(ascii: "\n"))
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n < 0 {
                if errno == EINTR { continue }
                throw Error(description: "send: \(String(cString: strerror(errno)))")
            }
            offset += n
        }
    }

    /// Stops reading; the sequences finish.
    public func disconnect() {
        state.disconnected.store(true, ordering: .relaxed)
        shutdown(fd, Int32(SHUT_RDWR))
        state.terminate()
    }

    /// connect(2)'s failures as a person would say them.
    static func connectFailure(_ code: Int32) -> String {
        switch code {
        case ENOENT: "no socket there"
        case ECONNREFUSED: "no penkitd listening"
        case EACCES, EPERM: "permission denied: not in the socket's group"
        case ENOTDIR: "a folder of that path does not exist"
        default: String(cString: strerror(code))
        }
    }

    private static func readLoop(fd: Int32, state: ReaderState,
                                 into continuation: AsyncThrowingStream<ReceivedLine, Swift.Error>.Continuation) {
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        var partial: [UInt8] = []
        var assembler = StrokeAssembler()
        // Whether the server ended the session itself (`shutdown` or a fatal `error`).
        var endedByServer = false
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 {
                if state.disconnected.load(ordering: .relaxed) || endedByServer {
                    continuation.finish()
                } else if n < 0 {
                    continuation.finish(throwing: Error(description: "read: \(String(cString: strerror(errno)))"))
                } else {
                    continuation.finish(throwing: Error(description: "penkitd closed the connection without a shutdown or error message; messages may have been lost: resume with `resumed(_:)` (since `resumeSince`)"))
                }
                return
            }
            let now = MonotonicClock.now()
            var start = 0
            for i in 0..<n where buffer[i] == UInt8(ascii: "\n") {
                partial.append(contentsOf: buffer[start..<i])
                let received = String(decoding: partial, as: UTF8.self)
                partial.removeAll(keepingCapacity: true)
                start = i + 1
                let assembled: String?
                do {
                    assembled = try assembler.take(received)
                } catch {
                    // The strokes delivered so far stand; a broken stroke ends the session loudly.
                    continuation.finish(throwing: Error(description: "penkitd sent a stroke in parts that cannot be put together: \(error)"))
                    return
                }
                guard let text = assembled else { continue }
                if text.hasPrefix("{\"type\":\"shutdown\"") || (text.hasPrefix("{\"type\":\"error\"") && text.contains("\"fatal\":true")) {
                    endedByServer = true
                }
                // Backpressure: wait for the app to take a line before holding another.
                state.slots.wait()
                if state.terminated.load(ordering: .relaxed) { continuation.finish(); return }
                continuation.yield(ReceivedLine(text: text, receivedAt: now))
            }
            partial.append(contentsOf: buffer[start..<n])
        }
    }
}

/// What the reader thread and the consuming side share.
private final class ReaderState: Sendable {
    /// Free places for received lines; the reader takes one per line, the consumer gives it back.
    let slots: CountingSemaphore
    let terminated = Atomic<Bool>(false)
    let disconnected = Atomic<Bool>(false)
    /// What the app took, for `resumeSince`.
    let resume = Mutex(ResumePoint())

    init(capacity: Int) { slots = CountingSemaphore(capacity) }

    /// The app is gone (stream dropped, client released or disconnected): unblock the reader for good.
    func terminate() {
        if !terminated.exchange(true, ordering: .relaxed) { slots.signal() }
    }
}

/// The base stream's iterator, advanced only by the unfolding stream. Unchecked because an
/// async iterator cannot live in a Mutex across an await; safe because AsyncStream's unfolding
/// closure is called for one element at a time (the next call only after the last returned), so
/// `next()` never overlaps itself, and nothing else holds the box. That single consumer is
/// checked on every call, as swift-nio's NIOLoopBound checks its loop: an overlapping call traps
/// here rather than racing on the iterator.
private final class IteratorBox: @unchecked Sendable {
    private var iterator: AsyncThrowingStream<ReceivedLine, Swift.Error>.AsyncIterator
    private let inUse = Atomic<Bool>(false)
    init(_ iterator: AsyncThrowingStream<ReceivedLine, Swift.Error>.AsyncIterator) { self.iterator = iterator }
    func next() async throws -> ReceivedLine? {
        precondition(!inUse.exchange(true, ordering: .acquiring), "IteratorBox.next() called while a call is under way")
        defer { inUse.store(false, ordering: .releasing) }
        return try await iterator.next()
    }
}
