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
        abstract: "Replay a trace into a drawing, erasers applied; write it as SVG or save it."
    )

    @Argument(help: "An evemu recording or a `libinput record` YAML file.")
    var trace: String

    @OptionGroup var output: SVGOutputOption

    @Option(help: "Save the drawing in penkit's drawing format (docs/drawing-format.md).")
    var save: String?

    @OptionGroup var drawing: DrawOptions

    @Flag(inversion: .prefixedNo, help: "libinput's 4-sample smoothing of x, y and tilt.")
    var smoothing = true

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
        print("\(inkStrokes) ink strokes, \(eraserStrokes) eraser strokes (\(drawing.eraserTool.mode.rawValue) eraser, "
              + "\(drawing.eraserTool.width) mm): \(erased.removed) strokes removed, \(erased.cut) cut, "
              + "\(erased.split) split into \(erased.pieces); \(result.strokes.count) strokes in the drawing")
        try output.write(result)
        if let save { try DrawingFile.write(result, to: save) }
    }
}
