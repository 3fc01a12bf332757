import Foundation
import PenView
import Testing

/// Each refusal of `penkit view`'s server: a real `penkit view` process on a real loopback socket,
/// sent the requests a foreign page, a DNS-rebinding browser or a guessing client would send.
@Suite(.serialized) struct ViewServerSecurityTests {
    @Test func servesThePageWithItsTokenAndOwnHost() throws {
        let view = try ViewProcess()
        let page = try RawHTTP.request(port: view.port, RawHTTP.get(path: "/?token=\(view.token)", host: view.host))
        #expect(page.status == 200)
        #expect(page.body.contains("<canvas id=\"canvas-ink\">"))
        #expect(page.body.contains("canvas.js?token=\(view.token)"))
        let debug = try RawHTTP.request(port: view.port, RawHTTP.get(path: "/debug?token=\(view.token)", host: view.host))
        #expect(debug.status == 200)
        #expect(debug.body.contains("<canvas id=\"ink\">"))
        for module in ["/canvas.js", "/canvas-inks.js", "/canvas-drawing.js", "/canvas-picker.js"] {
            let response = try RawHTTP.request(port: view.port, RawHTTP.get(path: "\(module)?token=\(view.token)", host: view.host))
            #expect(response.status == 200, "\(module)")
            #expect(response.head.lowercased().contains("content-type: text/javascript"), "\(module)")
        }
        let script = try RawHTTP.request(port: view.port, RawHTTP.get(path: "/view.js?token=\(view.token)", host: "localhost:\(view.port)"))
        #expect(script.status == 200)
        #expect(script.body.contains("new WebSocket"))
        #expect(view.token.count == 64)
        #expect(view.token.allSatisfy { $0.isHexDigit })
    }

    /// The surface page and SurfacePairing's module, under the same rules (docs/apps.md).
    @Test func servesTheSurfacePageAndItsModuleWithTheToken() throws {
        let view = try ViewProcess()
        let page = try RawHTTP.request(port: view.port, RawHTTP.get(path: "/surface?token=\(view.token)", host: view.host))
        #expect(page.status == 200)
        #expect(page.body.contains("surface.js?token=\(view.token)"))
        let module = try RawHTTP.request(port: view.port, RawHTTP.get(path: "/penkit-surface.js?token=\(view.token)", host: view.host))
        #expect(module.status == 200)
        #expect(module.body.contains("export class SurfacePairing"))
        #expect(module.head.lowercased().contains("content-type: text/javascript"))
    }

    @Test func refusesEveryPathWithoutTheToken() throws {
        let view = try ViewProcess()
        for path in ["/", "/view.js", "/view.css", "/ws", "/?token=", "/?other=\(view.token)",
                     "/surface", "/surface.js", "/penkit-surface.js", "/debug", "/canvas.js", "/canvas.css", "/drawing/save"] {
            let response = try RawHTTP.request(port: view.port, RawHTTP.get(path: path, host: view.host))
            #expect(response.status == 403, "\(path)")
            #expect(response.body.contains("no token"), "\(path)")
            #expect(!response.body.contains("canvas"), "\(path)")
        }
    }

    @Test func refusesAWrongToken() throws {
        let view = try ViewProcess()
        let flipped = String(view.token.dropLast()) + (view.token.last == "0" ? "1" : "0")
        for path in ["/?token=\(flipped)", "/view.js?token=\(flipped)", "/?token=\(view.token)0", "/?token=\(view.token.prefix(10))",
                     "/surface?token=\(flipped)", "/penkit-surface.js?token=\(flipped)"] {
            let response = try RawHTTP.request(port: view.port, RawHTTP.get(path: path, host: view.host))
            #expect(response.status == 403, "\(path)")
            #expect(response.body.contains("not this server's"), "\(path)")
        }
    }

    /// DNS rebinding: the attacker's name resolves to 127.0.0.1, so the browser sends their Host.
    @Test func refusesAForeignOrMissingHost() throws {
        let view = try ViewProcess()
        for host in ["attacker.example:\(view.port)", "127.0.0.1:\(view.port + 1)", "127.0.0.1", nil] {
            let response = try RawHTTP.request(port: view.port, RawHTTP.get(path: "/?token=\(view.token)", host: host))
            #expect(response.status == 403, "\(host ?? "no Host")")
            #expect(response.body.contains("Host header"), "\(host ?? "no Host")")
            #expect(!response.body.contains("canvas"))
        }
    }

    @Test func servesNothingElseAndNoFiles() throws {
        let view = try ViewProcess()
        for path in ["/etc/passwd", "/../../etc/passwd", "/Package.swift", "/traces/wacom-intuos4-6x9-stylus-tap.evemu",
                     "/view.js/../../etc/hostname", "//etc/passwd"] {
            let response = try RawHTTP.request(port: view.port, RawHTTP.get(path: "\(path)?token=\(view.token)", host: view.host))
            #expect(response.status == 404, "\(path)")
            #expect(!response.body.contains("root:"), "\(path)")
            #expect(!response.body.contains("N: Wacom"), "\(path)")
        }
        // POST goes to the drawing endpoints only, and only from the page's own origin.
        let post = try RawHTTP.request(port: view.port, bytes: RawHTTP.post(path: "/?token=\(view.token)", host: view.host,
                                                                          origin: "http://\(view.host)", body: []))
        #expect(post.status == 405)
        let put = try RawHTTP.request(port: view.port, RawHTTP.get(path: "/?token=\(view.token)", host: view.host, method: "PUT"))
        #expect(put.status == 405)
        let get = try RawHTTP.request(port: view.port, RawHTTP.get(path: "/drawing/save?token=\(view.token)", host: view.host))
        #expect(get.status == 405)
        #expect(get.body.contains("takes POST"))
    }

    @Test func acceptsTheWebSocketFromItsOwnPage() throws {
        let view = try ViewProcess()
        let response = try RawHTTP.request(port: view.port, RawHTTP.upgrade(
            path: "/ws?token=\(view.token)", host: view.host, origin: "http://\(view.host)"))
        #expect(response.status == 101)
    }

    /// Cross-site WebSocket hijacking: another page in the user's browser opens the socket; the
    /// browser sends that page's Origin, which is not this server's.
    @Test func refusesAWebSocketFromAnotherOrigin() throws {
        let view = try ViewProcess()
        for origin in ["http://attacker.example", "https://\(view.host)", "http://127.0.0.1:\(view.port + 1)", "null"] {
            let response = try RawHTTP.request(port: view.port, RawHTTP.upgrade(
                path: "/ws?token=\(view.token)", host: view.host, origin: origin))
            #expect(response.status == 403, "\(origin)")
            #expect(response.body.contains("Origin is not this server's"), "\(origin)")
        }
        let missing = try RawHTTP.request(port: view.port, RawHTTP.upgrade(path: "/ws?token=\(view.token)", host: view.host, origin: nil))
        #expect(missing.status == 403)
        #expect(missing.body.contains("must say its Origin"))
    }

    @Test func refusesAWebSocketWithoutTokenOrWithAForeignHost() throws {
        let view = try ViewProcess()
        let noToken = try RawHTTP.request(port: view.port, RawHTTP.upgrade(path: "/ws", host: view.host, origin: "http://\(view.host)"))
        #expect(noToken.status == 403)
        #expect(noToken.body.contains("no token"))
        let rebound = try RawHTTP.request(port: view.port, RawHTTP.upgrade(
            path: "/ws?token=\(view.token)", host: "attacker.example:\(view.port)", origin: "http://attacker.example:\(view.port)"))
        #expect(rebound.status == 403)
        #expect(rebound.body.contains("Host header"))
    }

    /// The kernel's own table says the listening socket is bound to 127.0.0.1, not to any address.
    @Test func listensOnLoopbackOnly() throws {
        let view = try ViewProcess()
        let port = String(view.port, radix: 16, uppercase: true)
        let padded = String(repeating: "0", count: 4 - port.count) + port
        // Read to the end: String(contentsOfFile:) stops after the first page of a /proc table.
        func procTable(_ path: String) -> String {
            guard let handle = FileHandle(forReadingAtPath: path), let data = try? handle.readToEnd() else { return "" }
            return String(decoding: data, as: UTF8.self)
        }
        let table = procTable("/proc/net/tcp") + procTable("/proc/net/tcp6")
        #expect(!table.isEmpty)
        let listening = table.split(separator: "\n").compactMap { line -> String? in
            let fields = line.split(separator: " ")
            guard fields.count > 3, fields[3] == "0A", fields[1].hasSuffix(":" + padded) else { return nil }
            return String(fields[1])
        }
        let loopback: String = "0100007F:" + padded
        #expect(listening == [loopback])
    }

    @Test func refusesToListenBeyondLoopback() throws {
        for text in ["0.0.0.0:8080", "192.168.1.2:80", "[::]:80", "example.com:80", "10.0.0.1:1"] {
            #expect(throws: ListenAddressError.self, "\(text)") { try ListenAddress(parsing: text) }
        }
        let localhost = try ListenAddress(parsing: "localhost:8080")
        let ipv6 = try ListenAddress(parsing: "[::1]:0")
        let other = try ListenAddress(parsing: "127.0.0.2:9")
        #expect(localhost.ip == "127.0.0.1")
        #expect(ipv6.hostLiteral == "[::1]")
        #expect(other.port == 9)
    }

    @Test func tokensAreLongAndDifferent() {
        let a = ViewAccess.makeToken(), b = ViewAccess.makeToken()
        #expect(a.count == 64)
        #expect(a.allSatisfy { $0.isHexDigit })
        #expect(a != b)
    }
}
