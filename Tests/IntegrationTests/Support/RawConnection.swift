import Foundation

/// A blocking test client: reads only when asked, so a test can also play a
/// client that stops reading.
final class RawConnection {
    let fd: Int32
    private var buffer: [UInt8] = []

    init(path: String) throws {
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8)) }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard result == 0 else {
            // No close here: deinit runs even when init throws, and closing twice would close
            // whatever descriptor another test's thread opened with the same number meanwhile.
            throw TestFailure("connect \(path): \(String(cString: strerror(errno)))")
        }
    }

    deinit { Glibc.close(fd) }

    func send(_ text: String) throws {
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { throw TestFailure("send: \(String(cString: strerror(errno)))") }
            offset += n
        }
    }

    func subscribe(_ channels: [String], since: UInt64? = nil) throws {
        let list = channels.map { "\"\($0)\"" }.joined(separator: ",")
        try send("{\"type\":\"subscribe\",\"version\":1,\"channels\":[\(list)]" + (since.map { ",\"since\":\($0)" } ?? "") + "}\n")
    }

    /// The next line, nil at end of stream; throws after `timeout` seconds without one.
    func readLine(timeout: Double = 60) throws -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffer[..<newline], as: UTF8.self)
                buffer.removeSubrange(...newline)
                return line
            }
            let remaining = deadline.timeIntervalSinceNow
            guard remaining > 0 else { throw TestFailure("no line from penkitd within \(timeout) s") }
            var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&pfd, 1, Int32(remaining * 1000))
            if ready < 0, errno == EINTR { continue }
            guard ready > 0 else { continue }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0, errno == EINTR { continue }
            if n < 0, errno == ECONNRESET { return nil }
            guard n >= 0 else { throw TestFailure("read: \(String(cString: strerror(errno)))") }
            if n == 0 {
                if buffer.isEmpty { return nil }
                let line = String(decoding: buffer, as: UTF8.self)
                buffer.removeAll()
                return line
            }
            buffer.append(contentsOf: chunk[..<n])
        }
    }

    /// Reads lines until one satisfies `stop` (returned with all before it), or the stream ends.
    func read(until stop: (String) -> Bool, timeout: Double = 30) throws -> [String] {
        var lines: [String] = []
        while let line = try readLine(timeout: timeout) {
            lines.append(line)
            if stop(line) { break }
        }
        return lines
    }

    /// Every line up to the end of the stream.
    func readAll(timeout: Double = 30) throws -> [String] { try read(until: { _ in false }, timeout: timeout) }
}

/// The parsed object of one JSON line.
func object(_ line: String) -> [String: Any] {
    (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any] ?? [:]
}

func type(_ line: String) -> String { object(line)["type"] as? String ?? "" }

func seq(_ line: String) -> UInt64? { (object(line)["seq"] as? NSNumber)?.uint64Value }
