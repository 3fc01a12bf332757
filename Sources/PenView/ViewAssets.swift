import Foundation
import PenKit

/// The pages, their scripts and style, as served: embedded in the binary (no CDN, no files).
/// The token is written into the pages' own links so that the script and style requests carry it.
struct ViewAssets: Sendable {
    struct Asset: Sendable {
        var contentType: String
        var text: String
    }

    private let byPath: [Substring: Asset]

    init(token: String) {
        let html = "text/html; charset=utf-8", js = "text/javascript; charset=utf-8"
        func page(_ text: String) -> Asset { Asset(contentType: html, text: text.replacingOccurrences(of: "{{TOKEN}}", with: token)) }
        func script(_ bytes: [UInt8]) -> Asset { Asset(contentType: js, text: String(decoding: bytes, as: UTF8.self)) }
        byPath = [
            // The canvas (PencilKit's PKCanvasView with its tool picker): the page `penkit view` prints first.
            "/": page(CanvasPageHTML.text),
            "/canvas.css": Asset(contentType: "text/css; charset=utf-8", text: CanvasStyle.text),
            "/canvas.js": script(PackageResources.canvas_js),
            "/canvas-inks.js": script(PackageResources.canvas_inks_js),
            // PenKit's ink table (InkDefinition.swift), which canvas-inks.js draws with.
            "/inks.json": Asset(contentType: "application/json", text: InkDefinition.tableJSON()),
            "/canvas-drawing.js": script(PackageResources.canvas_drawing_js),
            "/canvas-picker.js": script(PackageResources.canvas_picker_js),
            // The tablet-space debug view: what a client receives, with the panel (Resources/view.js).
            "/debug": page(ViewPageHTML.text),
            "/view.js": script(PackageResources.view_js),
            "/view.css": Asset(contentType: "text/css; charset=utf-8", text: ViewStyle.text),
            // The surface page: an app drawing with penkit in its own window (SurfacePage.swift).
            "/surface": page(SurfacePageHTML.text),
            "/surface.js": Asset(contentType: js, text: SurfacePageScript.text),
            // The settings page: penkitd's settings per tablet and per tool (Settings/SettingsPage.swift).
            "/settings": page(SettingsPageHTML.text),
            "/settings.css": Asset(contentType: "text/css; charset=utf-8", text: SettingsStyle.text),
            "/settings.js": script(PackageResources.settings_js),
            // penkit-surface.js, SurfacePairing for the browser (Resources/, docs/apps.md).
            "/penkit-surface.js": script(PackageResources.penkit_surface_js),
        ]
    }

    func named(_ path: Substring) -> Asset? { byPath[path] }
}
