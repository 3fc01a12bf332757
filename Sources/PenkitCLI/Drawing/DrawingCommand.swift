import ArgumentParser
import Foundation
import PenKit

/// `penkit drawing FILE`: opens a saved drawing, to draw it or describe it.
struct DrawingCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "drawing",
        abstract: "Open a saved drawing (docs/drawing-format.md): write it as SVG or PNG, or print what it holds."
    )

    @Argument(help: "A drawing saved by `penkit draw --save`.")
    var file: String

    @OptionGroup var output: DrawingOutputOptions

    @Flag(help: "Print the counts of strokes, points, erased strokes and split strokes, and the file's size per point.")
    var info = false

    func run() throws {
        let drawing = try DrawingFile.read(from: file)
        if info {
            let stats = DrawingStatistics(drawing)
            print("strokes: \(stats.strokes)")
            print("points: \(stats.points)")
            print("erased strokes: \(stats.erasedStrokes)")
            print("split strokes: \(stats.splitStrokes)")
            let fileBytes = DrawingFile.encode(drawing).count
            let jsonBytes = stats.jsonLinesBytes(drawing)
            print("size: \(fileBytes) bytes, \(perPoint(fileBytes, stats.points)) per point; JSON lines of the same "
                  + "strokes: \(jsonBytes) bytes, \(perPoint(jsonBytes, stats.points)) per point (\(ratio(fileBytes, jsonBytes)))")
        }
        try output.write(drawing)
    }

    private func perPoint(_ bytes: Int, _ points: Int) -> String {
        points == 0 ? "-" : String(format: "%.1f", Double(bytes) / Double(points))
    }

    private func ratio(_ a: Int, _ b: Int) -> String {
        b == 0 ? "-" : String(format: "%.2f×", Double(a) / Double(b))
    }
}
