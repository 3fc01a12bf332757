/// Where `penkit view` listens: a loopback address and a port (0: any free port). Anything that
/// is not loopback is refused here, before a socket exists, so the page never reaches the network.
package struct ListenAddress: Sendable, Equatable {
    package enum Family: Sendable { case ipv4, ipv6 }
    /// The numeric address bound (127.x.y.z or ::1).
    package let ip: String
    package let family: Family
    package let port: Int

    package static let `default` = ListenAddress(ip: "127.0.0.1", family: .ipv4, port: 0)

    /// How the address appears in a URL and in `Host`: IPv6 in brackets.
    package var hostLiteral: String { family == .ipv6 ? "[\(ip)]" : ip }

    /// Parses `127.0.0.1:PORT`, `localhost:PORT`, `[::1]:PORT` or a bare `PORT`.
    package init(parsing text: String) throws(ListenAddressError) {
        let host: Substring, portText: Substring
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { throw .malformed(text) }
            host = text[text.index(after: text.startIndex)..<close]
            let rest = text[text.index(after: close)...]
            guard rest.hasPrefix(":") else { throw .malformed(text) }
            portText = rest.dropFirst()
        } else if let colon = text.lastIndex(of: ":") {
            host = text[..<colon]
            portText = text[text.index(after: colon)...]
        } else {
            host = "127.0.0.1"
            portText = Substring(text)
        }
        guard let port = Int(portText), (0...65535).contains(port) else { throw .badPort(text) }
        switch host.lowercased() {
        case "localhost": self.init(ip: "127.0.0.1", family: .ipv4, port: port)
        case "::1": self.init(ip: "::1", family: .ipv6, port: port)
        default:
            let octets = host.split(separator: ".", omittingEmptySubsequences: false).map { UInt8($0) }
            guard octets.count == 4, octets.allSatisfy({ $0 != nil }) else { throw .notLoopback(text) }
            guard octets[0] == 127 else { throw .notLoopback(text) }
            self.init(ip: String(host), family: .ipv4, port: port)
        }
    }

    init(ip: String, family: Family, port: Int) {
        self.ip = ip
        self.family = family
        self.port = port
    }
}

package enum ListenAddressError: Error, CustomStringConvertible, Equatable {
    case malformed(String)
    case badPort(String)
    case notLoopback(String)

    package var description: String {
        switch self {
        case .malformed(let text): "--listen \(text): expected 127.0.0.1:PORT, localhost:PORT or [::1]:PORT"
        case .badPort(let text): "--listen \(text): the port must be a number from 0 to 65535"
        case .notLoopback(let text): "--listen \(text): penkit view serves loopback only (127.0.0.0/8 or ::1), so that the pen stays on this machine"
        }
    }
}
