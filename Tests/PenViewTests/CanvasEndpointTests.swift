import Foundation
import PenKit
import PenView
import Testing

/// The canvas's drawing endpoints on a real `penkit view` process: what the page sends becomes
/// PenKit's drawing file and SVG, a file opens back into the page's JSON, and every bad request
/// gets a 4xx that says why while the server goes on serving.
@Suite(.serialized) struct CanvasEndpointTests {
    static let twoStrokes = #"""
    {"unit":"px","strokes":[
      {"ink":"pen #1e63d6ff 1","points":[{"x":96,"y":96,"t":1000,"force":0.5},{"x":192,"y":144,"t":9000,"force":0.7,"altitude":1.2,"azimuth":0.5}]},
      {"ink":"marker #ffd000ff 6","points":[{"x":10,"y":300},{"x":400,"y":310}]}]}
    """#

    func post(_ view: ViewProcess, _ path: String, _ body: [UInt8], origin: String? = nil, query: String = "") throws -> RawHTTP.Response {
        try RawHTTP.request(port: view.port, bytes: RawHTTP.post(path: "\(path)?token=\(view.token)\(query)", host: view.host,
                                                                 origin: origin ?? "http://\(view.host)", body: body))
    }

    @Test func savesOpensAndRendersThroughPenKit() throws {
        let view = try ViewProcess()
        let saved = try post(view, "/drawing/save", Array(Self.twoStrokes.utf8))
        #expect(saved.status == 200)
        let drawing = try DrawingFile.decode(saved.bytes)
        #expect(drawing.strokes.count == 2)
        #expect(drawing.strokes.map(\.ink.type) == [.pen, .marker])
        // 96 px is an inch: 25.4 mm.
        let first = try #require(drawing.strokes.first?.points.first)
        #expect(abs(first.x - 25.4) < 1e-9 && abs(first.y - 25.4) < 1e-9)
        #expect(drawing.strokes[0].points[1].time - drawing.strokes[0].points[0].time == 8000)
        #expect(drawing.strokes[0].ink.color == InkColor(hexString: "#1e63d6ff"))

        let opened = try post(view, "/drawing/open", saved.bytes)
        #expect(opened.status == 200)
        let json = try CanvasDrawingJSON.parse(opened.bytes)
        #expect(json.strokes.count == 2)
        #expect(json.strokes[1].ink.hasPrefix("marker #ffd000ff 6"))
        let back = try #require(json.strokes.first?.points.last)
        #expect(abs(back.x - 192) < 1e-9 && abs(back.y - 144) < 1e-9)
        #expect(back.force == 0.7)

        let svg = try post(view, "/drawing/svg", Array(Self.twoStrokes.utf8))
        #expect(svg.status == 200)
        #expect(svg.head.lowercased().contains("content-type: image/svg+xml"))
        #expect(svg.body == DrawingSVG.render(drawing))
        // The canvas's "transparent background": PenKit's SVG without its white rectangle.
        let clear = try post(view, "/drawing/svg", Array(Self.twoStrokes.utf8), query: "&background=none")
        #expect(clear.status == 200)
        #expect(clear.body == DrawingSVG.render(drawing, transparent: true))
        #expect(svg.body.contains("fill=\"white\"") && !clear.body.contains("fill=\"white\""))
    }

    /// A moved and cut stroke comes back as the points of its visible parts, where they are drawn.
    @Test func opensAMovedAndErasedStrokeAsItsVisibleParts() throws {
        var drawing = try CanvasDrawingJSON.parse(Array(#"{"unit":"mm","strokes":[{"ink":"pen","points":[{"x":0,"y":0,"t":0},{"x":10,"y":0,"t":10000},{"x":20,"y":0,"t":20000}]}]}"#.utf8)).drawing()
        drawing = drawing.transformed(using: AffineTransform(a: 1, b: 0, c: 0, d: 1, tx: 5, ty: 2))
        let eraser = try CanvasDrawingJSON.parse(Array(#"{"unit":"mm","strokes":[{"ink":"pen","points":[{"x":15,"y":-5,"t":0},{"x":15,"y":9,"t":10000}]}]}"#.utf8)).drawing().strokes[0]
        _ = drawing.erase(along: eraser.points.map { DrawingPoint(x: $0.x, y: $0.y) }, with: EraserTool(.pixel, width: 2))
        let json = CanvasDrawingJSON(drawing)
        #expect(json.strokes.count == 2)
        let xs = json.strokes.flatMap { $0.points.map { $0.x * CanvasDrawingJSON.millimetresPerPixel } }
        #expect(abs((xs.min() ?? 0) - 5) < 1e-6 && abs((xs.max() ?? 0) - 25) < 1e-6)
        #expect(!xs.contains { abs($0 - 15) < 0.9 })
    }

    @Test func refusesBadBodiesAndGoesOnServing() throws {
        let view = try ViewProcess()
        let cases: [(String, [UInt8], Int, String)] = [
            ("/drawing/save", Array("{\"strokes\":[".utf8), 400, "not JSON"),
            ("/drawing/save", Array("{\"strokes\":[{\"points\":[]}]}".utf8), 400, "has no \"ink\""),
            ("/drawing/svg", Array("{\"strokes\":[{\"ink\":\"charcoal\",\"points\":[{\"x\":1,\"y\":1}]}]}".utf8), 400, "ink must start with its type"),
            ("/drawing/svg", Array("{\"strokes\":[{\"ink\":\"eraser\",\"points\":[{\"x\":1,\"y\":1}]}]}".utf8), 400, "leaves no ink"),
            ("/drawing/save", Array("{\"unit\":\"in\",\"strokes\":[]}".utf8), 400, "unit must be"),
            ("/drawing/save", Array("{\"strokes\":[{\"ink\":\"pen\",\"points\":[]}]}".utf8), 400, "has no points"),
            ("/drawing/save", Array("{\"strokes\":[{\"ink\":\"pen\",\"points\":[{\"x\":1,\"y\":1,\"t\":5},{\"x\":2,\"y\":1,\"t\":4}]}]}".utf8), 400, "before the previous point"),
            ("/drawing/open", Array("hello".utf8), 400, "not a drawing penkit can open"),
            ("/drawing/open", Array(DrawingFile.signature) + [1, 0], 400, "not a drawing penkit can open"),
            ("/drawing/other", [], 405, "POST goes to"),
        ]
        for (path, body, status, text) in cases {
            let response = try post(view, path, body)
            #expect(response.status == status, "\(path) \(text)")
            #expect(response.body.contains(text), "\(path): \(response.body)")
        }
        let foreign = try post(view, "/drawing/save", Array(Self.twoStrokes.utf8), origin: "http://attacker.example")
        #expect(foreign.status == 403)
        let noOrigin = try RawHTTP.request(port: view.port, bytes: RawHTTP.post(
            path: "/drawing/save?token=\(view.token)", host: view.host, origin: nil, body: Array(Self.twoStrokes.utf8)))
        #expect(noOrigin.status == 403)
        let noToken = try RawHTTP.request(port: view.port, bytes: RawHTTP.post(
            path: "/drawing/save", host: view.host, origin: "http://\(view.host)", body: Array(Self.twoStrokes.utf8)))
        #expect(noToken.status == 403)
        // Declared too large: refused at the head, before a byte of the body is read.
        let huge = try RawHTTP.request(port: view.port, bytes: RawHTTP.post(
            path: "/drawing/open?token=\(view.token)", host: view.host, origin: "http://\(view.host)", body: [], length: 17 << 20))
        #expect(huge.status == 413)
        #expect(huge.body.contains("at most 16 MiB"))
        // Still serving.
        let again = try post(view, "/drawing/save", Array(Self.twoStrokes.utf8))
        #expect(again.status == 200)
    }
}
