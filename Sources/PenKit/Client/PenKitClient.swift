import Foundation

/// A client of penkitd: connects to its Unix socket, subscribes, and delivers
/// what the server sends as an async sequence. One reader thread per client
/// stamps each line with its arrival time before anything else happens to it.
public final class PenKitClient: Sendable {
    public struct Error: Swift.Error, CustomStringConvertible, Sendable {
        public var description: String
    }

    private let fd: Int32
    /// Every line the server sends, with its arrival time; ends when the server closes.
    public let lines: AsyncThrowingStream<ReceivedLine, Swift.Error>

    /// The socket penkitd listens on by default, as penkitd resolves it.
    public static func defaultSocketPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let explicit = environment["PENKIT_SOCKET"], !explicit.isEmpty { return explicit }
        if getuid() != 0, let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty {
            return runtime + "/penkit/penkit.sock"
        }
        return "/run/penkit/penkit.sock"
    }

    public init(path: String = PenKitClient.defaultSocketPath()) throws {
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
            let reason = String(cString: strerror(errno))
            close(fd)
            throw Error(description: "cannot connect to penkitd at \(path): \(reason)")
        }
        self.fd = fd
        let (stream, continuation) = AsyncThrowingStream<ReceivedLine, Swift.Error>.makeStream(bufferingPolicy: .unbounded)
        self.lines = stream
        let thread = Thread { PenKitClient.readLoop(fd: fd, into: continuation) }
        thread.name = "penkit-client"
        thread.start()
    }

    deinit { close(fd) }

    /// The server's messages, typed; lines that are not JSON objects are skipped.
    public var messages: AsyncThrowingCompactMapSequence<AsyncThrowingStream<ReceivedLine, Swift.Error>, PenMessage> {
        lines.compactMap { PenMessage(line: $0.text) }
    }

    public func subscribe(_ channels: ChannelSet, since: UInt64? = nil) throws {
        try send(SubscribeRequest(channels: channels, since: since).jsonLine())
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
        shutdown(fd, Int32(SHUT_RDWR))
    }

    private static func readLoop(fd: Int32, into continuation: AsyncThrowingStream<ReceivedLine, Swift.Error>.Continuation) {
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        var partial: [UInt8] = []
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 {
                if n < 0 { continuation.finish(throwing: Error(description: "read: \(String(cString: strerror(errno)))")) }
                else { continuation.finish() }
                return
            }
            let now = monotonicMicroseconds()
            var start = 0
            for i in 0..<n where buffer[i] == UInt8(ascii: "\n") {
                partial.append(contentsOf: buffer[start..<i])
                continuation.yield(ReceivedLine(text: String(decoding: partial, as: UTF8.self), receivedAt: now))
                partial.removeAll(keepingCapacity: true)
                start = i + 1
            }
            partial.append(contentsOf: buffer[start..<n])
        }
    }
}

/// CLOCK_MONOTONIC in µs, the clock of libinput's event times.
public func monotonicMicroseconds() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return UInt64(ts.tv_sec) * 1_000_000 + UInt64(ts.tv_nsec) / 1_000
}
