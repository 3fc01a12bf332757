import NIOHTTP1

/// What the server answers to an HTTP request: a page, its script or style, a drawing endpoint's
/// answer (CanvasEndpoints), or a refusal. Nothing here reads a file: the only bodies are the
/// embedded assets, fixed messages and what the drawing endpoints make of the request's own body.
struct ViewResponse: Sendable {
    var status: HTTPResponseStatus
    var contentType: String
    var body: [UInt8]
    /// Refusals close the connection; nothing more is served to a client that was refused.
    var close: Bool

    init(status: HTTPResponseStatus, contentType: String, body: [UInt8], close: Bool) {
        self.status = status
        self.contentType = contentType
        self.body = body
        self.close = close
    }

    init(status: HTTPResponseStatus, contentType: String, body: String, close: Bool) {
        self.init(status: status, contentType: contentType, body: Array(body.utf8), close: close)
    }

    /// A GET or HEAD: the canvas, the debug view, the surface page, their scripts and style.
    static func route(method: HTTPMethod, uri: String, host: String?, access: ViewAccess, assets: ViewAssets) -> ViewResponse {
        if let refusal = access.checkRequest(host: host, uri: uri) {
            return .refused(.forbidden, refusal.reason)
        }
        guard method == .GET || method == .HEAD else {
            return CanvasEndpoints.handles(ViewAccess.path(of: uri)) || SettingsEndpoints.handles(ViewAccess.path(of: uri))
                ? .refused(.methodNotAllowed, "\(ViewAccess.path(of: uri)) takes POST")
                : .refused(.methodNotAllowed, "only GET, and POST to the drawing endpoints")
        }
        let path = ViewAccess.path(of: uri)
        if let asset = assets.named(path) {
            return ViewResponse(status: .ok, contentType: asset.contentType, body: asset.text, close: false)
        }
        if CanvasEndpoints.handles(path) || SettingsEndpoints.handles(path) { return .refused(.methodNotAllowed, "\(path) takes POST") }
        if path == "/ws" { return .refused(.badRequest, "/ws is the page's WebSocket; a plain request is not served") }
        return .refused(.notFound, "penkit view serves its pages only")
    }

    static func refused(_ status: HTTPResponseStatus, _ reason: String) -> ViewResponse {
        ViewResponse(status: status, contentType: "text/plain; charset=utf-8", body: "penkit view: \(reason)\n", close: true)
    }

    /// Headers that keep the page to itself: no caching of a tokened URL, no referrer carrying the
    /// token elsewhere, no framing by another site, and the page may load only its own script and style.
    func headers(keepAlive: Bool) -> HTTPHeaders {
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: contentType)
        headers.add(name: "Content-Length", value: String(body.count))
        headers.add(name: "Cache-Control", value: "no-store")
        headers.add(name: "Referrer-Policy", value: "no-referrer")
        headers.add(name: "X-Content-Type-Options", value: "nosniff")
        headers.add(name: "X-Frame-Options", value: "DENY")
        // blob: images: the canvas shows an opened drawing's SVG and exports through object URLs.
        headers.add(name: "Content-Security-Policy", value: "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data: blob:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
        headers.add(name: "Connection", value: close || !keepAlive ? "close" : "keep-alive")
        return headers
    }
}
