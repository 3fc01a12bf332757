import Foundation

/// A test's own HTTP client on a plain TCP socket, so that a test can send exactly the `Host`,
/// `Origin` and upgrade headers an attacker's page or a DNS-rebinding browser would.
enum RawHTTP {
    struct Response {
        var status: Int
        var head: String
        var body: String
        /// The body as sent (a drawing file is not text).
        var bytes: [UInt8]
    }

    /// Sends `text` and reads the answer (blocking; the server under test is another process).
    static func request(port: Int, _ text: String) throws -> Response {
        try request(port: port, bytes: Array(text.utf8))
    }

    /// Sends `bytes` (a request with a binary body) and reads the answer.
    static func request(port: Int, bytes: [UInt8]) throws -> Response {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw TestError("socket failed") }
        defer { close(fd) }
        var timeout = timeval(tv_sec: 30, tv_usec: 0)  // bounds a failure only
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw TestError("connect failed: \(errno)") }
        guard bytes.withUnsafeBytes({ send(fd, $0.baseAddress, $0.count, 0) }) == bytes.count else { throw TestError("send failed") }
        // Read until the head is complete, then the body's Content-Length (or until close).
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n <= 0 { break }
            received += buffer[0..<n]
            if let response = parse(received), response.complete { return response.response }
        }
        guard let response = parse(received) else { throw TestError("no HTTP response: \(String(decoding: received, as: UTF8.self))") }
        return response.response
    }

    private static func parse(_ bytes: [UInt8]) -> (response: Response, complete: Bool)? {
        let separator: [UInt8] = Array("\r\n\r\n".utf8)
        guard let split = stride(from: 0, through: bytes.count - 4, by: 1).first(where: { bytes[$0..<$0 + 4].elementsEqual(separator) }) else { return nil }
        let head = String(decoding: bytes[..<split], as: UTF8.self)
        let body = Array(bytes[(split + 4)...])
        let statusLine = head.split(separator: "\r\n").first ?? ""
        let status = Int(statusLine.split(separator: " ").dropFirst().first ?? "") ?? 0
        let length = head.split(separator: "\r\n").compactMap { line -> Int? in
            let parts = line.split(separator: ":", maxSplits: 1)
            guard parts.count == 2, parts[0].lowercased() == "content-length" else { return nil }
            return Int(parts[1].trimmingCharacters(in: .whitespaces))
        }.first
        // A 101 has no body; anything else is complete when its Content-Length has arrived.
        let complete = status == 101 || (length.map { body.count >= $0 } ?? false)
        return (Response(status: status, head: head, body: String(decoding: body, as: UTF8.self), bytes: body), complete)
    }

    /// A WebSocket upgrade request for `/ws` with the given headers (nil leaves one out).
    static func upgrade(path: String, host: String?, origin: String?) -> String {
        var text = "GET \(path) HTTP/1.1\r\n"
        if let host { text += "Host: \(host)\r\n" }
        if let origin { text += "Origin: \(origin)\r\n" }
        text += "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
        return text
    }

    /// A POST with `body`, from `origin` (nil leaves the header out); `length` overrides Content-Length.
    static func post(path: String, host: String, origin: String?, body: [UInt8], length: Int? = nil) -> [UInt8] {
        var text = "POST \(path) HTTP/1.1\r\nHost: \(host)\r\n"
        if let origin { text += "Origin: \(origin)\r\n" }
        text += "Content-Length: \(length ?? body.count)\r\nConnection: close\r\n\r\n"
        return Array(text.utf8) + body
    }

    static func get(path: String, host: String?, method: String = "GET") -> String {
        var text = "\(method) \(path) HTTP/1.1\r\n"
        if let host { text += "Host: \(host)\r\n" }
        return text + "Connection: close\r\n\r\n"
    }
}

struct TestError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
