import NIOHTTP1

/// What the server answers to a plain HTTP request: the page, its script and style, or a refusal.
/// Nothing here reads a file: the only bodies are the embedded assets and fixed messages.
struct ViewResponse: Sendable {
    var status: HTTPResponseStatus
    var contentType: String
    var body: String
    /// Refusals close the connection; nothing more is served to a client that was refused.
    var close: Bool

    static func route(method: HTTPMethod, uri: String, host: String?, access: ViewAccess, assets: ViewAssets) -> ViewResponse {
        if let refusal = access.checkRequest(host: host, uri: uri) {
            return .refused(.forbidden, refusal.reason)
        }
        guard method == .GET || method == .HEAD else {
            return .refused(.methodNotAllowed, "only GET")
        }
        switch ViewAccess.path(of: uri) {
        case "/": return ViewResponse(status: .ok, contentType: "text/html; charset=utf-8", body: assets.page, close: false)
        case "/view.js": return ViewResponse(status: .ok, contentType: "text/javascript; charset=utf-8", body: assets.script, close: false)
        case "/view.css": return ViewResponse(status: .ok, contentType: "text/css; charset=utf-8", body: assets.style, close: false)
        case "/surface": return ViewResponse(status: .ok, contentType: "text/html; charset=utf-8", body: assets.surfacePage, close: false)
        case "/surface.js": return ViewResponse(status: .ok, contentType: "text/javascript; charset=utf-8", body: assets.surfaceScript, close: false)
        case "/penkit-surface.js": return ViewResponse(status: .ok, contentType: "text/javascript; charset=utf-8", body: assets.surfaceModule, close: false)
        case "/ws": return .refused(.badRequest, "/ws is the page's WebSocket; a plain request is not served")
        default: return .refused(.notFound, "penkit view serves its page only")
        }
    }

    static func refused(_ status: HTTPResponseStatus, _ reason: String) -> ViewResponse {
        ViewResponse(status: status, contentType: "text/plain; charset=utf-8", body: "penkit view: \(reason)\n", close: true)
    }

    /// Headers that keep the page to itself: no caching of a tokened URL, no referrer carrying the
    /// token elsewhere, no framing by another site, and the page may load only its own script and style.
    func headers(keepAlive: Bool) -> HTTPHeaders {
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: contentType)
        headers.add(name: "Content-Length", value: String(body.utf8.count))
        headers.add(name: "Cache-Control", value: "no-store")
        headers.add(name: "Referrer-Policy", value: "no-referrer")
        headers.add(name: "X-Content-Type-Options", value: "nosniff")
        headers.add(name: "X-Frame-Options", value: "DENY")
        headers.add(name: "Content-Security-Policy", value: "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
        headers.add(name: "Connection", value: close || !keepAlive ? "close" : "keep-alive")
        return headers
    }
}
