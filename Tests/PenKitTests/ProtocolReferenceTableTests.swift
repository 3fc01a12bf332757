import Foundation
import PenTestSupport
import Testing

/// docs/protocol.md's table of every message is generated from docs/protocol.schema.json, the
/// one definition of the protocol: each message's `type`, sender (`x-sender`) and `description`,
/// in the schema's order (`make generated`, which runs this suite with PENKIT_UPDATE_GENERATED=1,
/// rewrites it). So a new message type is described once, in the schema, and its row follows.
@Suite struct ProtocolReferenceTableTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path
    static let start = "<!-- the table of every message is generated from docs/protocol.schema.json: `make generated` -->\n"
    static let end = "<!-- end of the generated table of every message -->\n"

    struct Row: Equatable {
        var type: String
        var sender: String
        var description: String
    }

    /// The schema's messages (its definitions with an `x-sender`), in the file's order.
    static func rows() throws -> [Row] {
        let text = try String(contentsOfFile: root + "/docs/protocol.schema.json", encoding: .utf8)
        let schema = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let definitions = try #require(schema["$defs"] as? [String: [String: Any]])
        var rows: [(place: String.Index, row: Row)] = []
        for (name, definition) in definitions {
            guard let sender = definition["x-sender"] as? String else { continue }
            let properties = definition["properties"] as? [String: Any]
            let type = try #require((properties?["type"] as? [String: Any])?["const"] as? String, "\(name) has no type const")
            let description = try #require(definition["description"] as? String, "\(name) has no description")
            let place = try #require(Self.definitionPlace(name, in: text), "\(name) is not found as a definition")
            rows.append((place, Row(type: type, sender: sender, description: description)))
        }
        return rows.sorted { $0.place < $1.place }.map(\.row)
    }

    /// Where `"NAME": {` opens a definition (its first key is `x-sender`), not a property of that name.
    static func definitionPlace(_ name: String, in text: String) -> String.Index? {
        var rest = text.startIndex..<text.endIndex
        while let found = text.range(of: "\"\(name)\": {", range: rest) {
            if text[found.upperBound...].drop(while: \.isWhitespace).hasPrefix("\"x-sender\"") { return found.lowerBound }
            rest = found.upperBound..<text.endIndex
        }
        return nil
    }

    static func table() throws -> String {
        var lines = ["| type | from | what |", "|---|---|---|"]
        for row in try rows() {
            lines.append("| `\(row.type)` | \(row.sender) | \(row.description.replacingOccurrences(of: "|", with: "\\|")) |")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    @Test func theDocsTableIsTheGeneratedOne() throws {
        let generated = try Self.table()
        let table = try GeneratedDocBlock(path: Self.root + "/docs/protocol.md", start: Self.start, end: Self.end).current(updatingTo: generated)
        #expect(table == generated, "docs/protocol.md's table of every message is not the schema's: run `make generated`")
    }

    /// Every message the schema's top-level `oneOf` lists has its row, and the server's and the
    /// clients' messages are both there.
    @Test func everyMessageOfTheSchemaHasItsRow() throws {
        let rows = try Self.rows()
        let text = try String(contentsOfFile: Self.root + "/docs/protocol.schema.json", encoding: .utf8)
        let schema = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let listed = (schema["oneOf"] as? [[String: String]] ?? []).compactMap { $0["$ref"] }
        #expect(!listed.isEmpty)
        #expect(Set(rows.map(\.sender)) == ["server", "client"])
        #expect(rows.allSatisfy { !$0.description.isEmpty })
        #expect(rows.count >= listed.count, "\(rows.count) rows for \(listed.count) messages in oneOf")
    }
}
