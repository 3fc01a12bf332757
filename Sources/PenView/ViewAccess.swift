/// Who may talk to the view server. Every refusal is decided here, apart from NIO, so that each
/// one can be tested and the HTTP and WebSocket paths cannot disagree.
///
/// The server binds to loopback, but that alone does not keep a pen private: any web page the
/// user opens can make the browser send requests to 127.0.0.1. So every request must carry the
/// random token printed with the URL (a foreign page cannot know it), must name this server in
/// `Host` (a DNS-rebinding page's requests name the attacker's domain), and a WebSocket must come
/// from this server's own origin (cross-site WebSocket hijacking sends the foreign page's origin),
/// and so must a drawing POST.
package struct ViewAccess: Sendable {
    package enum Refusal: Error, Equatable, Sendable {
        case foreignHost
        case missingToken
        case wrongToken
        case missingOrigin
        case foreignOrigin

        /// The text sent with the 403, so that a person who pasted a URL sees what went wrong.
        package var reason: String {
            switch self {
            case .foreignHost: "the Host header does not name this server (only its loopback address or localhost)"
            case .missingToken: "the URL has no token: open the URL penkit view printed"
            case .wrongToken: "the token in the URL is not this server's: open the URL penkit view printed"
            case .missingOrigin: "a WebSocket or a drawing request must say its Origin"
            case .foreignOrigin: "the request's Origin is not this server's page"
            }
        }
    }

    package let token: String
    /// `Host` values that name this server, lowercased: its address literal and `localhost`, with the port.
    package let hosts: Set<String>

    package init(token: String, address: ListenAddress, port: Int) {
        self.token = token
        self.hosts = [address.hostLiteral + ":\(port)", "localhost:\(port)"]
    }

    /// The checks for a page or script request: the server's own `Host`, then the token.
    package func checkRequest(host: String?, uri: String) -> Refusal? {
        guard let host, hosts.contains(host.lowercased()) else { return .foreignHost }
        guard let given = Self.queryValue("token", in: uri), !given.isEmpty else { return .missingToken }
        return Self.constantTimeEquals(given, token) ? nil : .wrongToken
    }

    /// The checks for a drawing request (a POST, CanvasEndpoints): as for the WebSocket, since a
    /// foreign page can make the browser POST here too (a "simple" cross-site request needs no
    /// preflight); only the page's own scripts send this server's Origin.
    package func checkPost(host: String?, origin: String?, uri: String) -> Refusal? {
        checkWebSocket(host: host, origin: origin, uri: uri)
    }

    /// The checks for a WebSocket upgrade: those of any request, then the page's own origin.
    package func checkWebSocket(host: String?, origin: String?, uri: String) -> Refusal? {
        if let refusal = checkRequest(host: host, uri: uri) { return refusal }
        guard let origin else { return .missingOrigin }
        let lowered = origin.lowercased()
        guard lowered.hasPrefix("http://"), hosts.contains(String(lowered.dropFirst("http://".count))) else {
            return .foreignOrigin
        }
        return nil
    }

    /// The path of a request target, without its query.
    package static func path(of uri: String) -> Substring {
        uri.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
    }

    static func queryValue(_ name: String, in uri: String) -> Substring? {
        guard let query = uri.split(separator: "?", maxSplits: 1).dropFirst().first else { return nil }
        for pair in query.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            if parts.count == 2, parts[0] == name { return parts[1] }
        }
        return nil
    }

    /// Compares without stopping at the first difference, so response time tells nothing about the token.
    static func constantTimeEquals(_ a: Substring, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        guard x.count == y.count else { return false }
        var difference: UInt8 = 0
        for i in 0..<x.count { difference |= x[i] ^ y[i] }
        return difference == 0
    }

    /// 32 random bytes in hex, from the system's cryptographic generator (getrandom on Linux).
    package static func makeToken() -> String {
        var generator = SystemRandomNumberGenerator()
        var text = ""
        for _ in 0..<4 {
            let word = generator.next() as UInt64
            let hex = String(word, radix: 16)
            text += String(repeating: "0", count: 16 - hex.count) + hex
        }
        return text
    }
}
