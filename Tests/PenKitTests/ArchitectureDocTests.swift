import Foundation
import Testing

/// docs/architecture.md names every target of Package.swift, so that a new module is placed in
/// the map when it is made.
@Suite struct ArchitectureDocTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    @Test func everyTargetIsNamed() throws {
        let manifest = try String(contentsOfFile: Self.root + "/Package.swift", encoding: .utf8)
        let doc = try String(contentsOfFile: Self.root + "/docs/architecture.md", encoding: .utf8)
        let pattern = try NSRegularExpression(pattern: #"\.(?:target|executableTarget|systemLibrary|testTarget)\(name: "([A-Za-z0-9_]+)""#)
        let names = pattern.matches(in: manifest, range: NSRange(manifest.startIndex..., in: manifest)).compactMap {
            Range($0.range(at: 1), in: manifest).map { String(manifest[$0]) }
        }
        #expect(names.count > 10, "targets read from Package.swift: \(names)")
        let missing = names.filter { !doc.contains($0) }
        #expect(missing.isEmpty, "targets docs/architecture.md does not name: \(missing)")
    }

    /// "How to change" names real files: every path it gives exists, and every test suite and
    /// script it names as a check is there, so the section cannot point at something renamed away.
    @Test func howToChangeNamesFilesThatExist() throws {
        let doc = try String(contentsOfFile: Self.root + "/docs/architecture.md", encoding: .utf8)
        let start = try #require(doc.range(of: "## How to change"))
        let section = String(doc[start.upperBound...].prefix { $0 != "#" })
        let quoted = try NSRegularExpression(pattern: "`([^`]+)`")
        let tokens = quoted.matches(in: section, range: NSRange(section.startIndex..., in: section)).compactMap {
            Range($0.range(at: 1), in: section).map { String(section[$0]) }
        }
        let paths = tokens.filter { $0.contains("/") && $0.contains(".") && !$0.contains(" ") }
        #expect(paths.count >= 10, "paths read from the section: \(paths)")
        for path in paths {
            #expect(FileManager.default.fileExists(atPath: Self.root + "/" + path), "docs/architecture.md names \(path), which does not exist")
        }
        let suites = Set(section.split(whereSeparator: { !$0.isLetter }).map(String.init).filter { $0.hasSuffix("Tests") && $0.first!.isUppercase })
        let testFiles = FileManager.default.enumerator(atPath: Self.root + "/Tests")?.compactMap { $0 as? String } ?? []
        #expect(suites.count >= 4, "suites read from the section: \(suites)")
        for suite in suites {
            #expect(testFiles.contains { $0.hasSuffix("/\(suite).swift") }, "docs/architecture.md names \(suite), which no test file is")
        }
    }
}
