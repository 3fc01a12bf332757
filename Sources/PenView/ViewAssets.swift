import Foundation

/// The page, its script and its style, as served: embedded in the binary (no CDN, no files).
/// The token is written into the page's own links so that the script and style requests carry it.
struct ViewAssets: Sendable {
    let page: String
    let script: String
    let style: String

    init(token: String) {
        page = ViewPageHTML.text.replacingOccurrences(of: "{{TOKEN}}", with: token)
        script = ViewScript.text
        style = ViewStyle.text
    }
}
