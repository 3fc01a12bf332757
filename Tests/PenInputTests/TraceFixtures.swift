import Foundation

/// Paths to the repository's traces and test fixtures, found from this file (never via ../shared).
enum TraceFixtures {
    static let repoRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func trace(_ name: String) -> String { repoRoot.appendingPathComponent("traces/\(name)").path }

    static func fixture(_ relative: String) -> String {
        repoRoot.appendingPathComponent("Tests/Fixtures/\(relative)").path
    }

    static var evemuTraces: [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: repoRoot.appendingPathComponent("traces").path)) ?? []
        return names.filter { $0.hasSuffix(".evemu") }.sorted()
    }

    static func lines(_ path: String) throws -> [Substring] {
        try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
    }
}
