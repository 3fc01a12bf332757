import ArgumentParser
import PenEngine
import PenKit

/// How `penkit draw` turns a trace's strokes into a drawing: the ink per tool type and the eraser.
struct DrawOptions: ParsableArguments {
    @Option(name: .customLong("ink"),
            help: "Ink for a tool type: TOOL=TYPE [#RRGGBBAA] [WIDTH], e.g. pen=\"pencil #203060ff 1\". Repeatable.")
    var inks: [String] = []

    @Option(help: "What eraser strokes do: object (remove touched strokes whole) or pixel (cut them).")
    var eraser: EraserTool.Mode = .object

    @Option(help: "Eraser width in mm (default 2 for object, 6 for pixel).")
    var eraserWidth: Double?

    var eraserTool: EraserTool { EraserTool(eraser, width: eraserWidth) }

    func engineConfiguration() throws -> EngineConfiguration {
        var configuration = EngineConfiguration()
        for entry in inks {
            guard let eq = entry.firstIndex(of: "="), let tool = ToolType(rawValue: String(entry[..<eq])) else {
                throw ValidationError("--ink expects TOOL=INK with TOOL one of \(ToolType.allCases.map(\.rawValue).joined(separator: ", ")), got \(entry)")
            }
            do {
                configuration.inks[tool] = try Ink(spec: String(entry[entry.index(after: eq)...]))
            } catch {
                throw ValidationError("--ink \(entry): \(error)")
            }
        }
        return configuration
    }
}

extension EraserTool.Mode: ExpressibleByArgument {}
