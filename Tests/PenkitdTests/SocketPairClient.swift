import Foundation
import Glibc

/// One end of a real Unix socketpair; the other end is handed to the hub as an accepted client.
final class SocketPairClient {
    let fd: Int32
    /// The hub's end; the hub owns and closes it.
    let serverEnd: Int32
    private var buffer: [UInt8] = []

    init() throws {
        var fds: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0, &fds) == 0 else {
            throw PenkitdTestFailure("socketpair: \(String(cString: strerror(errno)))")
        }
        fd = fds[0]
        serverEnd = fds[1]
        _ = fcntl(serverEnd, F_SETFL, fcntl(serverEnd, F_GETFL) | O_NONBLOCK)
    }

    deinit { Glibc.close(fd) }

    func send(_ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    /// Every complete line the hub has written so far (the hub writes synchronously, so what it
    /// sent is already in the socket when the call that sent it returns); nil after end of stream.
    func lines() -> [String]? {
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        var ended = false
        while true {
            let n = chunk.withUnsafeMutableBytes { Glibc.recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if n > 0 { buffer += chunk[..<n]; continue }
            if n == 0 { ended = true }
            break
        }
        var out: [String] = []
        while let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
            out.append(String(decoding: buffer[..<newline], as: UTF8.self))
            buffer.removeSubrange(...newline)
        }
        return out.isEmpty && ended ? nil : out
    }
}

struct PenkitdTestFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

func jsonObject(_ line: String) -> [String: Any] {
    (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any] ?? [:]
}

func messageType(_ line: String) -> String { jsonObject(line)["type"] as? String ?? "" }
