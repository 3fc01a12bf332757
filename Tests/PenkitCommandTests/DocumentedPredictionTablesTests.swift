import ArgumentParser
import Foundation
import Testing
@testable import penkit

/// The prediction tables docs/measurements/prediction-shared-traces.md pastes are what
/// `penkit bench predict` prints today, to the byte. A change to the predictor, the benchmark or
/// the traces that moves any figure fails here until the doc is rerun; a refactor must leave them
/// alone. The doc's own command lines are run: a block that follows a line with a
/// `penkit bench predict …` command and "prints" is its whole output, or its end where the line
/// says "at its end".
@Suite struct DocumentedPredictionTablesTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    struct DocumentedRun: CustomStringConvertible {
        var arguments: [String]
        var block: String
        var atItsEnd: Bool
        var description: String { arguments.joined(separator: " ") }
    }

    /// Each command line that "prints" the fenced block after it.
    static func documentedRuns() throws -> [DocumentedRun] {
        let doc = try String(contentsOf: repository.appendingPathComponent("docs/measurements/prediction-shared-traces.md"),
                             encoding: .utf8)
        let lines = doc.components(separatedBy: "\n")
        var runs: [DocumentedRun] = []
        for (index, line) in lines.enumerated() where line.contains("prints") {
            guard let command = line.range(of: "penkit bench predict "),
                  let close = line[command.upperBound...].firstIndex(of: "`"),
                  let fence = lines[(index + 1)...].firstIndex(where: { !$0.isEmpty }), lines[fence] == "```",
                  let end = lines[(fence + 1)...].firstIndex(of: "```") else { continue }
            let words = line[command.upperBound..<close].split(separator: " ").map(String.init)
            runs.append(DocumentedRun(arguments: try words.flatMap(expand), block: lines[(fence + 1)..<end].joined(separator: "\n"),
                                      atItsEnd: line.contains("at its end")))
        }
        return runs
    }

    /// A shell word as bash expands it in the repository: `traces/{a,b}*.evemu` to the traces
    /// (absolute paths: the tests share one working directory), sorted within each alternative;
    /// any other word as it is.
    static func expand(_ word: String) throws -> [String] {
        guard let open = word.firstIndex(of: "{"), let close = word.firstIndex(of: "}") else { return [word] }
        let head = word[..<open], tail = word[word.index(after: close)...]
        return try word[word.index(after: open)..<close].split(separator: ",").flatMap { alternative -> [String] in
            let pattern = head + alternative + tail
            guard let star = pattern.firstIndex(of: "*") else { return [String(pattern)] }
            let folder = (String(pattern[..<star]) as NSString).deletingLastPathComponent
            let prefix = (String(pattern[..<star]) as NSString).lastPathComponent
            let suffix = String(pattern[pattern.index(after: star)...])
            let names = try FileManager.default.contentsOfDirectory(atPath: repository.appendingPathComponent(folder).path)
            return names.filter { $0.hasPrefix(prefix) && $0.hasSuffix(suffix) }.sorted()
                .map { repository.appendingPathComponent(folder).appendingPathComponent($0).path }
        }
    }

    @Test func theDocumentedTablesAreWhatTheBenchPrintsToday() throws {
        let runs = try Self.documentedRuns()
        // The whole table and the largest errors: a doc that lost its blocks must not pass quietly.
        #expect(runs.count == 2, "blocks found: \(runs)")
        for run in runs {
            #expect(run.arguments.filter { $0.hasSuffix(".evemu") }.count == 8, "\(run)")
            let command = try PredictBenchCommand.parse(run.arguments)
            let printed = try command.text(command.score())
            if run.atItsEnd {
                #expect(printed.hasSuffix(run.block), "\(run): prints\n\(printed)")
            } else {
                #expect(printed == run.block, "\(run): prints\n\(printed)")
            }
        }
    }
}
