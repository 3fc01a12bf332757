import ArgumentParser
import Foundation
import PenEngine
import PenEvaluation
import PenInput
import PenKit

/// `penkit compare MESSAGES REFERENCE`: the finalized strokes a client of penkitd received
/// (`penkit events --json` output) against a reference: the messages of `penkit replay --json`,
/// or a trace, which is then replayed exactly as `penkit replay TRACE --json` does. make e2e runs
/// it on what penkitd sent while each trace played through the real kernel in a VM.
/// Exits 1 on any difference (StrokeComparison says what is compared and how).
struct CompareCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compare",
        abstract: "Compare a client's finalized strokes with `penkit replay --json` of a trace."
    )

    @Argument(help: "JSON lines a client received (penkit events --json), or penkit replay --json output.")
    var messages: String

    @Argument(help: "The reference: a trace (evemu or libinput record YAML) or a .jsonl of messages.")
    var reference: String

    @Option(help: "Largest difference allowed in position (mm), force, tilt (degrees) and roll (radians).")
    var tolerance: Double = 0.01

    @Option(help: "Also check each sample's time offset from its stroke's first sample, within this many µs.")
    var timeTolerance: Double?

    @Option(help: "A name to start the report line with (default: the messages file's name).")
    var name: String?

    @Option(help: "How many differences to list.")
    var maxDifferences = 20

    @OptionGroup var decoding: TraceDecodingOptions

    @Option(help: "Replay a trace reference at this multiple of its pace, as `penkit replay --speed`.")
    var speed: Double = 1

    func run() throws {
        let actual = StrokeComparison.strokes(inLines: try lines(of: messages))
        let expected: [Stroke]
        if reference.hasSuffix(".jsonl") || reference.hasSuffix(".json") {
            expected = StrokeComparison.strokes(inLines: try lines(of: reference))
        } else {
            let inputs = try decodeForEngine(reference, options: decoding.decoderOptions, speed: speed)
            var strokes: [Stroke] = []
            // the same engine set-up as `penkit replay --json` (ReplayMessages.swift)
            EngineReplay(latePressure: nil, prediction: EnginePrediction.penkit(smoothed: decoding.smoothing)).run(inputs) { message in
                if case .stroke(let finalized) = message { strokes.append(finalized.stroke) }
            }
            expected = strokes
        }
        let result = StrokeComparison(actual: actual, expected: expected, tolerance: tolerance, timeTolerance: timeTolerance)
        let label = name ?? URL(fileURLWithPath: messages).lastPathComponent
        print("\(label): \(result.passed ? "same" : "DIFFERENT"): \(result.summary)")
        for line in result.differences.prefix(maxDifferences) { print("  \(line)") }
        if result.differences.count > maxDifferences {
            print("  ... and \(result.differences.count - maxDifferences) more differences")
        }
        if !result.passed { throw ExitCode(1) }
    }

    private func lines(of path: String) throws -> [Substring] {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        return text.split(separator: "\n")
    }
}
