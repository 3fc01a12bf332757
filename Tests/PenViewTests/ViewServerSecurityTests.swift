import Foundation
import PenView
import Testing

/// Each refusal of `penkit view`'s server, against the real server on a real loopback socket.
@Suite(.serialized) struct ViewServerSecurityTests {
    /// A feed that says one known line, so that a test can tell an accepted WebSocket from a refused one.
    struct OneLineFeed: ViewFeed {
        func run(into page: ViewPage) async throws { try await page.send("{\"type\":\"end\",\"message\":\"hello page\"}") }
    }

    static let token = String(repeating: "ab", count: 32)

    func withServer(_ body: (ViewServer) async throws -> Void) async throws {
        let server = try await ViewServer(address: .default, feed: OneLineFeed(), token: Self.token)
        let task = Task { try await server.run() }
        defer { task.cancel() }
        try await body(server)
    }

    @Test func servesThePageWithItsTokenAndOwnHost() async throws {
        try await withServer { server in
            let host = "127.0.0.1:\(server.port)"
            let page = try await RawHTTP.request(port: server.port, RawHTTP.get(path: "/?token=\(Self.token)", host: host))
            #expect(page.status == 200)
            #expect(page.body.contains("<canvas id=\"ink\">"))
            let script = try await RawHTTP.request(port: server.port, RawHTTP.get(path: "/view.js?token=\(Self.token)", host: "localhost:\(server.port)"))
            #expect(script.status == 200)
            #expect(script.body.contains("new WebSocket"))
            #expect(server.url == "http://127.0.0.1:\(server.port)/?token=\(Self.token)")
        }
    }

    @Test func refusesEveryPathWithoutTheToken() async throws {
        try await withServer { server in
            let host = "127.0.0.1:\(server.port)"
            for path in ["/", "/view.js", "/view.css", "/ws", "/?token=", "/?other=\(Self.token)"] {
                let response = try await RawHTTP.request(port: server.port, RawHTTP.get(path: path, host: host))
                #expect(response.status == 403, "\(path)")
                #expect(response.body.contains("no token"), "\(path)")
                #expect(!response.body.contains("canvas"), "\(path)")
            }
        }
    }

    @Test func refusesAWrongToken() async throws {
        try await withServer { server in
            let host = "127.0.0.1:\(server.port)"
            let wrong = String(repeating: "ab", count: 31) + "ac"
            for path in ["/?token=\(wrong)", "/view.js?token=\(wrong)", "/?token=\(Self.token)x", "/?token=\(Self.token.prefix(10))"] {
                let response = try await RawHTTP.request(port: server.port, RawHTTP.get(path: path, host: host))
                #expect(response.status == 403, "\(path)")
                #expect(response.body.contains("not this server's"), "\(path)")
            }
        }
    }

    /// DNS rebinding: the attacker's name resolves to 127.0.0.1, so the browser sends their Host.
    @Test func refusesAForeignOrMissingHost() async throws {
        try await withServer { server in
            for host in ["attacker.example:\(server.port)", "127.0.0.1:\(server.port + 1)", "127.0.0.1", nil] {
                let response = try await RawHTTP.request(port: server.port, RawHTTP.get(path: "/?token=\(Self.token)", host: host))
                #expect(response.status == 403, "\(host ?? "no Host")")
                #expect(response.body.contains("Host header"), "\(host ?? "no Host")")
                #expect(!response.body.contains("canvas"))
            }
        }
    }

    @Test func servesNothingElseAndNoFiles() async throws {
        try await withServer { server in
            let host = "127.0.0.1:\(server.port)"
            for path in ["/etc/passwd", "/../../etc/passwd", "/Package.swift", "/view.js/../../etc/hostname", "//etc/passwd"] {
                let response = try await RawHTTP.request(port: server.port, RawHTTP.get(path: "\(path)?token=\(Self.token)", host: host))
                #expect(response.status == 404, "\(path)")
                #expect(!response.body.contains("root:"), "\(path)")
            }
            let post = try await RawHTTP.request(port: server.port, RawHTTP.get(path: "/?token=\(Self.token)", host: host, method: "POST"))
            #expect(post.status == 405)
        }
    }

    @Test func acceptsTheWebSocketFromItsOwnPage() async throws {
        try await withServer { server in
            let host = "127.0.0.1:\(server.port)"
            let response = try await RawHTTP.request(port: server.port, RawHTTP.upgrade(
                path: "/ws?token=\(Self.token)", host: host, origin: "http://\(host)"))
            #expect(response.status == 101)
        }
    }

    /// Cross-site WebSocket hijacking: another page in the user's browser opens the socket; the
    /// browser sends that page's Origin, which is not this server's.
    @Test func refusesAWebSocketFromAnotherOrigin() async throws {
        try await withServer { server in
            let host = "127.0.0.1:\(server.port)"
            for origin in ["http://attacker.example", "https://127.0.0.1:\(server.port)", "http://127.0.0.1:\(server.port + 1)", "null"] {
                let response = try await RawHTTP.request(port: server.port, RawHTTP.upgrade(
                    path: "/ws?token=\(Self.token)", host: host, origin: origin))
                #expect(response.status == 403, "\(origin)")
                #expect(response.body.contains("Origin is not this server's"), "\(origin)")
            }
            let missing = try await RawHTTP.request(port: server.port, RawHTTP.upgrade(path: "/ws?token=\(Self.token)", host: host, origin: nil))
            #expect(missing.status == 403)
            #expect(missing.body.contains("must say its Origin"))
        }
    }

    @Test func refusesAWebSocketWithoutTokenOrWithAForeignHost() async throws {
        try await withServer { server in
            let host = "127.0.0.1:\(server.port)"
            let noToken = try await RawHTTP.request(port: server.port, RawHTTP.upgrade(path: "/ws", host: host, origin: "http://\(host)"))
            #expect(noToken.status == 403)
            #expect(noToken.body.contains("no token"))
            let rebound = try await RawHTTP.request(port: server.port, RawHTTP.upgrade(
                path: "/ws?token=\(Self.token)", host: "attacker.example:\(server.port)", origin: "http://attacker.example:\(server.port)"))
            #expect(rebound.status == 403)
            #expect(rebound.body.contains("Host header"))
        }
    }

    @Test func bindsToLoopbackOnly() async throws {
        for text in ["0.0.0.0:8080", "192.168.1.2:80", "[::]:80", "example.com:80", "10.0.0.1:1"] {
            #expect(throws: ListenAddressError.self, "\(text)") { try ListenAddress(parsing: text) }
        }
        let localhost = try ListenAddress(parsing: "localhost:8080")
        let ipv6 = try ListenAddress(parsing: "[::1]:0")
        let other = try ListenAddress(parsing: "127.0.0.2:9")
        #expect(localhost.ip == "127.0.0.1")
        #expect(ipv6.hostLiteral == "[::1]")
        #expect(other.port == 9)
        // The server's socket itself is bound to the loopback address.
        try await withServer { server in
            #expect(server.boundAddress.hasPrefix("127.0.0.1"))
        }
    }

    @Test func tokensAreLongAndDifferent() {
        let a = ViewAccess.makeToken(), b = ViewAccess.makeToken()
        #expect(a.count == 64)
        #expect(a.allSatisfy { $0.isHexDigit })
        #expect(a != b)
    }
}
