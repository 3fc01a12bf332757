import Foundation

/// The page, its script and its style, as served: embedded in the binary (no CDN, no files).
/// The token is written into the page's own links so that the script and style requests carry it.
struct ViewAssets: Sendable {
    let page: String
    let script: String
    let style: String
    /// The surface page: an app drawing with penkit in its own window (SurfacePage.swift).
    let surfacePage: String
    let surfaceScript: String
    /// penkit-surface.js, SurfacePairing for the browser (Resources/, docs/apps.md).
    let surfaceModule: String

    init(token: String) {
        page = ViewPageHTML.text.replacingOccurrences(of: "{{TOKEN}}", with: token)
        script = ViewScript.text
        style = ViewStyle.text
        surfacePage = SurfacePageHTML.text.replacingOccurrences(of: "{{TOKEN}}", with: token)
        surfaceScript = SurfacePageScript.text
        surfaceModule = String(decoding: PackageResources.penkit_surface_js, as: UTF8.self)
    }
}
