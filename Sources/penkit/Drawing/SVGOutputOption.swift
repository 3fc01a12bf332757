import ArgumentParser
import Foundation
import PenKit

/// `--svg FILE`, as `penkit draw` and `penkit drawing` both take it.
struct SVGOutputOption: ParsableArguments {
    @Option(help: "Write the drawing as SVG to this file.")
    var svg: String?

    /// Writes `drawing` as SVG when `--svg` was given.
    func write(_ drawing: Drawing) throws {
        if let svg { try DrawingSVG.render(drawing).write(toFile: svg, atomically: true, encoding: .utf8) }
    }
}
