/// The start of every page `penkit view` serves, up to `<body`: its title, its stylesheet and its
/// script, each fetched with the server's token (`{{TOKEN}}`, replaced when the server starts).
enum PageHead {
    /// `module`: the script is an ES module (the pages that import penkit-surface.js); else deferred.
    static func html(title: String, stylesheet: String, script: String, module: Bool = true) -> String {
        let scriptTag = module ? #"<script type="module" src="\#(script)?token={{TOKEN}}"></script>"#
            : #"<script src="\#(script)?token={{TOKEN}}" defer></script>"#
        return """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(title)</title>
            <link rel="stylesheet" href="\(stylesheet)?token={{TOKEN}}">
            \(scriptTag)
            </head>

            """
    }
}
