import Foundation
import Testing

/// The bench tables the docs paste as what a command prints are what it prints today, to the
/// byte: a change to the predictor, the virtual tablet's filter, a benchmark or the traces that
/// moves any figure fails here until the doc is rerun, and a refactor must leave them alone.
/// The doc's own command lines run, through bash in the repository (so its globs and braces
/// expand as a reader's shell would), with the `penkit` built beside this test.
///
/// Two forms are read:
/// - a line naming `` `penkit bench predict …` `` and "prints", then a fenced block: the whole
///   output, or its end where the line says "at its end";
/// - a fenced block whose first line is `$ penkit bench virtual-tablet …` and nothing more: the
///   rest of the block. A first line with a note after the command (a commit, "the tail") is an
///   earlier run kept for the record, not checked.
@Suite struct DocumentedBenchTablesTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    struct DocumentedRun: CustomStringConvertible {
        var command: String
        var block: String
        var atItsEnd: Bool
        var description: String { command }
    }

    static func lines(_ doc: String) throws -> [String] {
        try String(contentsOf: repository.appendingPathComponent(doc), encoding: .utf8).components(separatedBy: "\n")
    }

    /// `` `penkit bench predict …` … prints `` followed by a fenced block.
    static func predictionRuns() throws -> [DocumentedRun] {
        let lines = try lines("docs/measurements/prediction-shared-traces.md")
        var runs: [DocumentedRun] = []
        for (index, line) in lines.enumerated() where line.contains("prints") {
            guard let command = line.range(of: "penkit bench predict "),
                  let close = line[command.upperBound...].firstIndex(of: "`"),
                  let fence = lines[(index + 1)...].firstIndex(where: { !$0.isEmpty }), lines[fence] == "```",
                  let end = lines[(fence + 1)...].firstIndex(of: "```") else { continue }
            runs.append(DocumentedRun(command: String(line[command.lowerBound..<close]),
                                      block: lines[(fence + 1)..<end].joined(separator: "\n"), atItsEnd: line.contains("at its end")))
        }
        return runs
    }

    /// Fenced blocks that start with `$ penkit bench virtual-tablet …` and no note.
    static func virtualTabletRuns() throws -> [DocumentedRun] {
        let lines = try lines("docs/virtual-tablet.md")
        var runs: [DocumentedRun] = []
        for (index, line) in lines.enumerated() where line == "```" && index + 1 < lines.count {
            let first = lines[index + 1]
            guard first.hasPrefix("$ penkit bench virtual-tablet "), !first.contains("("),
                  let end = lines[(index + 2)...].firstIndex(of: "```") else { continue }
            runs.append(DocumentedRun(command: String(first.dropFirst(2)), block: lines[(index + 2)..<end].joined(separator: "\n"),
                                      atItsEnd: false))
        }
        return runs
    }

    /// What `command` prints, run by bash in the repository with the built penkit first on PATH.
    static func output(of command: String) throws -> String {
        let bin = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().path
        let penkit = FileManager.default.isExecutableFile(atPath: bin + "/penkit") ? bin : repository.path + "/.build/debug"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", command]
        process.currentDirectoryURL = repository
        var environment = ProcessInfo.processInfo.environment
        environment["PATH"] = penkit + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        process.environment = environment
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(command) exited \(process.terminationStatus)")
        var text = String(decoding: data, as: UTF8.self)
        if text.hasSuffix("\n") { text.removeLast() }
        return text
    }

    static func check(_ runs: [DocumentedRun]) throws {
        for run in runs {
            let printed = try output(of: run.command)
            if run.atItsEnd {
                #expect(printed.hasSuffix(run.block), "\(run) prints\n\(printed)")
            } else {
                #expect(printed == run.block, "\(run) prints\n\(printed)")
            }
        }
    }

    @Test func thePredictionTablesAreWhatTheBenchPrintsToday() throws {
        let runs = try Self.predictionRuns()
        // The whole table and the largest errors: a doc that lost its blocks must not pass quietly.
        #expect(runs.count == 2, "blocks found: \(runs)")
        try Self.check(runs)
    }

    @Test func theVirtualTabletTablesAreWhatTheBenchPrintsToday() throws {
        let runs = try Self.virtualTabletRuns()
        // The per-recording table of all the recordings.
        #expect(runs.count == 1, "blocks found: \(runs)")
        try Self.check(runs)
    }
}
