import NIOHTTP1
import PenKit

/// The canvas's drawing endpoints (POST, same token, Host and Origin rules as the WebSocket), so
/// that the page has one drawing format and one SVG renderer, PenKit's:
///
/// - `/drawing/save`: the page's JSON (CanvasDrawingJSON) → the `.penkit` file's bytes (DrawingFile);
/// - `/drawing/open`: a `.penkit` file's bytes → the JSON the page draws;
/// - `/drawing/svg`: the page's JSON → PenKit's SVG of it (DrawingSVG); with `background=none` in
///   the query, without its white background (as `penkit drawing --svg --transparent`).
///
/// A bad body is a 400 that says what is wrong; nothing the page sends can stop the server.
enum CanvasEndpoints {
    /// Bounds a request body (the session refuses a larger one with 413 before reading it):
    /// about 100,000 points of JSON, far more than a drawing made on the canvas in one sitting.
    static let maximumBodyBytes = 16 << 20

    static let paths: Set<Substring> = ["/drawing/save", "/drawing/open", "/drawing/svg"]

    static func handles(_ path: Substring) -> Bool { paths.contains(path) }

    static func respond(uri: String, body: [UInt8]) -> ViewResponse {
        let path = ViewAccess.path(of: uri)
        switch path {
        case "/drawing/save":
            return withDrawing(body) { drawing in
                ViewResponse(status: .ok, contentType: "application/vnd.penkit.drawing", body: DrawingFile.encode(drawing), close: false)
            }
        case "/drawing/svg":
            return withDrawing(body) { drawing in
                let transparent = ViewAccess.queryValue("background", in: uri) == "none"
                return ViewResponse(status: .ok, contentType: "image/svg+xml; charset=utf-8",
                                    body: DrawingSVG.render(drawing, transparent: transparent), close: false)
            }
        case "/drawing/open":
            let drawing: Drawing
            do { drawing = try DrawingFile.decode(body) } catch {
                return .refused(.badRequest, "not a drawing penkit can open: \(error)")
            }
            return ViewResponse(status: .ok, contentType: "application/json", body: CanvasDrawingJSON(drawing).jsonBytes(), close: false)
        default:
            return .refused(.notFound, "no drawing endpoint \(path)")
        }
    }

    private static func withDrawing(_ body: [UInt8], _ answer: (Drawing) -> ViewResponse) -> ViewResponse {
        do {
            return answer(try CanvasDrawingJSON.parse(body).drawing())
        } catch {
            return .refused(.badRequest, error.description)
        }
    }
}
