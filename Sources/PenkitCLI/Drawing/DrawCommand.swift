import ArgumentParser
import Foundation
import PenEngine
import PenEvaluation
import PenInput
import PenKit

/// `penkit draw TRACE`: the trace's finished strokes, in the order they began,
/// applied to a drawing: ink strokes are added, eraser strokes erase.
struct DrawCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "draw",
        abstract: "Replay a trace into a drawing, erasers applied; write it as SVG or PNG, or save it."
    )

    @Argument(help: "An evemu recording or a `libinput record` YAML file.")
    var trace: String

    @OptionGroup var output: DrawingOutputOptions

    @Option(help: "Save the drawing in penkit's drawing format (docs/drawing-format.md).")
    var save: String?

    @OptionGroup var drawing: DrawOptions

    @Flag(inversion: .prefixedNo, help: "libinput's 4-sample smoothing of x, y and tilt.")
    var smoothing = true

    @Option(name: .customLong("eraser-pass"), help: ArgumentHelp(EraserPass.helpText))
    var eraserPasses: [EraserPass] = []

    func validate() throws {
        for case .line(let a, let b) in eraserPasses where max(abs(a.x), abs(a.y), abs(b.x), abs(b.y)) > 10_000 {
            throw ValidationError("--eraser-pass: coordinates are mm on the tablet, at most 10000 (10 m) from its origin")
        }
    }

    func run() throws {
        let inputs = try decodeForEngine(trace, options: DecoderOptions(smoothing: smoothing ? nil : false))
        let replay = EngineReplay(configuration: try drawing.engineConfiguration())
        var result = Drawing()
        var inkStrokes = 0, eraserStrokes = 0
        var erased = EraseResult()
        replay.run(inputs) { message in
            guard case .stroke(let finalized) = message else { return }
            if let pass = result.apply(finalized.stroke, eraser: drawing.eraserTool) {
                eraserStrokes += 1
                erased.add(pass)
            } else {
                inkStrokes += 1
            }
        }
        var passes = 0
        for pass in eraserPasses {
            for path in pass.paths(in: result) {
                erased.add(result.erase(along: path, with: drawing.eraserTool))
                passes += 1
            }
        }
        let synthetic = passes > 0 ? " and \(passes) synthetic eraser pass(es)" : ""
        print("\(inkStrokes) ink strokes, \(eraserStrokes) eraser strokes\(synthetic) (\(drawing.eraserTool.mode.rawValue) eraser, "
              + "\(drawing.eraserTool.width) mm): \(erased.removed) strokes removed, \(erased.cut) cut, "
              + "\(erased.split) split into \(erased.pieces); \(result.strokes.count) strokes in the drawing")
        try output.write(result)
        if let save { try DrawingFile.write(result, to: save) }
    }
}
