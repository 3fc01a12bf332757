import ArgumentParser
import Foundation
import PenKit

/// `--svg FILE`, `--transparent`, `--png FILE` and `--png-scale`, as `penkit draw` and `penkit drawing` both take them.
struct DrawingOutputOptions: ParsableArguments {
    @Option(help: "Write the drawing as SVG to this file.")
    var svg: String?

    @Flag(help: "Leave the SVG's background transparent (no white rectangle), for markup over other content; the PNG's always is.")
    var transparent = false

    @Option(help: "Write the drawing as an RGBA PNG with a transparent background to this file.")
    var png: String?

    @Option(name: .customLong("png-scale"), help: "PNG pixels per millimetre (8 is about 200 dpi).")
    var pngScale: Double = 8

    func validate() throws {
        guard pngScale.isFinite, pngScale > 0, pngScale <= 100 else {
            throw ValidationError("--png-scale must be in (0, 100] pixels per mm, not \(pngScale)")
        }
    }

    /// Writes `drawing` as SVG and as PNG, as asked.
    func write(_ drawing: Drawing) throws {
        if let svg { try DrawingSVG.render(drawing, transparent: transparent).write(toFile: svg, atomically: true, encoding: .utf8) }
        if let png {
            let raster = DrawingRaster(drawing, scale: pngScale)
            let bytes = PNGFile.encode(rgba: raster.rgba8, width: raster.width, height: raster.height)
            try Data(bytes).write(to: URL(fileURLWithPath: png), options: .atomic)
        }
    }
}
