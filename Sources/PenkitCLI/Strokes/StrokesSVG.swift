import Foundation
import PenKit

/// The received strokes as a drawing (eraser strokes erase, with the object
/// eraser as on iPad), written as SVG by PenKit's renderer.
enum StrokesSVG {
    static func write(_ strokes: [Stroke], to path: String, eraser: EraserTool = EraserTool()) throws {
        var drawing = Drawing()
        for stroke in strokes { drawing.apply(stroke, eraser: eraser) }
        try DrawingSVG.render(drawing).write(toFile: path, atomically: true, encoding: .utf8)
    }
}
