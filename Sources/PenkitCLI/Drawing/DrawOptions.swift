import ArgumentParser
import PenEngine
import PenKit

/// How `penkit draw` turns a trace's strokes into a drawing: the ink per tool type and the eraser.
struct DrawOptions: ParsableArguments {
    @Option(name: .customLong("ink"),
            help: ArgumentHelp("Ink for a tool type: TOOL=TYPE [#RRGGBBAA] [WIDTH], e.g. pen=\"pencil #203060ff 1\". Repeatable.",
                              discussion: "TYPE: pen, pencil, marker, monoline, fountainPen, watercolor, crayon (or eraser)."))
    var inks: [String] = []

    @OptionGroup var erasing: EraserOptions

    var eraserTool: EraserTool { erasing.tool }

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
        do {
            return try configuration.validated()
        } catch {
            throw ValidationError("\(error)")
        }
    }
}
