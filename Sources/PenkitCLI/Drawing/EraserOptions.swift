import ArgumentParser
import PenKit

/// What eraser strokes do when strokes become a drawing (`penkit draw`, `penkit strokes --svg`).
struct EraserOptions: ParsableArguments {
    @Option(help: "What eraser strokes do: object (remove touched strokes whole, as on iPad) or pixel (cut them).")
    var eraser: EraserTool.Mode = .object

    @Option(help: "Eraser width in mm (default 2 for object, 6 for pixel).")
    var eraserWidth: Double?

    var tool: EraserTool { EraserTool(eraser, width: eraserWidth) }
}

extension EraserTool.Mode: ExpressibleByArgument {}
