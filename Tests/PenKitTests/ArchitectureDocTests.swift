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
}
