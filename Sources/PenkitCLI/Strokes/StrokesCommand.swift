import ArgumentParser
import Foundation
import PenKit

/// `penkit strokes`: finalized strokes from penkitd, one line each, optionally drawn into an SVG.
struct StrokesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "strokes",
        abstract: "Print finalized strokes from penkitd; optionally write them as SVG."
    )

    @OptionGroup var daemon: DaemonClientOptions

    @Option(help: "First receive the strokes after sequence number N that penkitd's history still holds.")
    var since: UInt64?

    @Option(help: "Write every received stroke into this SVG file (rewritten after each stroke and at the end).")
    var svg: String?

    @OptionGroup var erasing: EraserOptions

    @Option(help: "Stop after this many strokes.")
    var count: Int?

    @Flag(help: "Print the raw JSON lines.")
    var json = false

    func run() async throws {
        let client = try daemon.connect()
        try client.subscribe([.strokes], since: since)
        var strokes: [FinalizedStroke] = []
        for try await line in client.lines {
            guard let message = PenMessage(line: line.text) else { continue }
            switch message {
            case .engine(.stroke(let finalized)):
                strokes.append(finalized)
                print(json ? line.text : StrokeLine.describe(finalized))
                fflush(nil)  // one line per stroke as it arrives, even into a pipe
                if let svg { try StrokesSVG.write(strokes.map(\.stroke), to: svg, eraser: erasing.tool) }
                if let count, strokes.count >= count {
                    client.disconnect()
                    return
                }
            case .error(let code, let text, let fatal):
                FileHandle.standardError.write(Data("penkitd: \(code): \(text)\n".utf8))
                if fatal { throw ServerError(code: code, message: text) }
            case .overflow(let lastSentSeq, let text):
                let resume = lastSentSeq.map { " (run again with --since \($0))" } ?? ""
                FileHandle.standardError.write(Data("penkitd: overflow: \(text)\(resume)\n".utf8))
                throw ServerError(code: ErrorMessage.Code.overflow.rawValue, message: text)
            case .shutdown(let shutdown):
                // Where to pick up after penkitd's restart, as the overflow line says it.
                let resume = shutdown.lastSentSeq.map { " (after its restart, run again with --since \($0))" } ?? ""
                FileHandle.standardError.write(Data("penkitd stopped: \(shutdown.reason)\(resume)\n".utf8))
            default:
                break
            }
        }
        if let svg { try StrokesSVG.write(strokes.map(\.stroke), to: svg, eraser: erasing.tool) }
    }
}
