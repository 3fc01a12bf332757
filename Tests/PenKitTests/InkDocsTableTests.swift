import Foundation
import PenKit
import PenTestSupport
import Testing

/// docs/strokes.md's table of the inks is generated from `InkDefinition` (`make generated`, which
/// runs this suite with PENKIT_UPDATE_GENERATED=1, rewrites it); without it the suite checks that
/// the doc is up to date, so a new ink's numbers are not written by hand a second time.
@Suite struct InkDocsTableTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path
    static let start = "<!-- the table of the inks is generated from InkDefinition (Sources/PenKit/Stroke): `make generated` -->\n"
    static let end = "<!-- end of the generated table of the inks -->\n"

    @Test func theDocsTableIsTheGeneratedOne() throws {
        let table = try GeneratedDocBlock(path: Self.root + "/docs/strokes.md", start: Self.start, end: Self.end)
            .current(updatingTo: InkDefinition.docsTable)
        #expect(table == InkDefinition.docsTable, "docs/strokes.md's table of the inks is not InkDefinition.docsTable: run `make generated`")
    }

    /// Every ink has its row, with its own default width and range.
    @Test func everyInkHasItsRow() {
        let rows = InkDefinition.docsTable.split(separator: "\n").dropFirst(2)
        #expect(rows.count == Ink.InkType.allCases.count)
        for type in Ink.InkType.allCases {
            #expect(rows.contains { $0.hasPrefix("| \(type.rawValue) | ") }, "no row for \(type)")
        }
    }
}
