import PenKit
import PenTestSupport
import Testing

/// PenKit's readers against the schema's examples (docs/protocol.schema.json, `examples` of each
/// message, which together carry every field the schema declares): each example is read by the
/// Swift reader of its type and written again by the Swift writer penkitd sends it with, and
/// must come back the same JSON. A message type no reader knows, or a field a reader drops or a
/// writer adds, fails here; expected values are the schema's, not the code's.
@Suite struct ProtocolExampleTests {
    static let examples: [ProtocolExample] = (try? ProtocolExamples.all()) ?? []
    /// Read by `penkit record` (the CLI's `Recording`), checked in PenkitCommandTests.RecordingExampleTests.
    static let readByTheRecordCommand: Set<String> = ["recording", "recording-events", "recording-digests", "recording-end"]

    @Test func theSchemaHasExamplesOfEveryMessage() throws {
        let all = try ProtocolExamples.all()
        #expect(Set(all.map(\.definition)).count >= 27, "\(Set(all.map(\.definition)).sorted())")
        #expect(Set(all.map(\.sender)) == ["server", "client"])
    }

    /// The examples are valid, declared and carry every property of the schema
    /// (scripts/check-protocol-schema.py --examples, with Debian's python3-jsonschema).
    @Test func theExamplesAreValidAndCarryEveryField() throws {
        let (status, report) = try ProtocolSchemaCheck.runTool("python3", ["scripts/check-protocol-schema.py", "--examples"])
        #expect(status == 0, "\(report)")
    }

    /// The view's JavaScript readers take the examples and read only the schema's types and fields
    /// (scripts/protocol-readers-check.mjs, in node).
    @Test func theViewsJavaScriptReadsOnlyTheSchemasMessages() throws {
        let (status, report) = try ProtocolSchemaCheck.runTool("node", ["scripts/protocol-readers-check.mjs"])
        #expect(status == 0, "\(report)")
    }

    @Test(arguments: examples.filter { $0.sender == "server" && !readByTheRecordCommand.contains($0.type)
                                   && $0.type != "strokePart" && !isParted($0) })
    func penMessageReadsAndWritesBackEveryServerExample(_ example: ProtocolExample) throws {
        let message = try #require(PenMessage(line: example.line), "PenMessage does not decode \(example)")
        if case .unknown(let type, _) = message { Issue.record("PenMessage reads \(type) as unknown"); return }
        let wire = try #require(message.wire, "no writer for \(message)")
        let written = try #require(ProtocolExamples.value(of: wire.jsonLine()))
        let differences = ProtocolExamples.differences(example.value, written)
        #expect(differences.isEmpty, "\(example.definition): \(differences)")
    }

    @Test(arguments: examples.filter { $0.sender == "client" })
    func penkitdReadsAndPenKitWritesBackEveryClientExample(_ example: ProtocolExample) throws {
        let request: any WireMessage
        if example.type == "pressure" {
            // A pressure source's readings come after its declaration, on the same connection.
            switch PressureReading.parse(Array(example.line.utf8)) {
            case .success(let reading): request = reading
            case .failure(let error): Issue.record("refused: \(error.message)"); return
            }
        } else {
            switch ClientRequest.parse(Array(example.line.utf8)) {
            case .subscribe(let r): request = r
            case .pressureSource(.success(let r)): request = r
            case .record(let r): request = r
            case .status(let r): request = r
            case .settings(let r): request = r
            case .pressureSource(.failure(let error)), .invalid(let error):
                Issue.record("\(example.definition) refused: \(error.message)"); return
            }
        }
        let written = try #require(ProtocolExamples.value(of: request.jsonLine()))
        let differences = ProtocolExamples.differences(example.value, written)
        #expect(differences.isEmpty, "\(example.definition): \(differences)")
    }

    /// `strokePart` lines and the `stroke` line that closes them, through the client's
    /// StrokeAssembler: the whole stroke carries the parts' points and control points in order,
    /// and the closing line's other fields.
    @Test func theStrokeAssemblerPutsTheExamplePartsTogether() throws {
        let parts = Self.examples.filter { $0.type == "strokePart" }
        let closing = try #require(Self.examples.first(where: Self.isParted))
        #expect(!parts.isEmpty)
        var assembler = StrokeAssembler()
        for part in parts { #expect(try assembler.take(part.line) == nil, "\(part)") }
        let whole = try #require(try assembler.take(closing.line))
        let read = try #require(PenMessage(line: whole))
        guard case .engine(let engine) = read else { Issue.record("not a stroke: \(whole)"); return }
        let written = try #require(ProtocolExamples.value(of: engine.jsonLine()))

        guard case .object(var expected) = closing.value, case .object(var stroke)? = expected["stroke"],
              case .object(var path)? = stroke["path"] else { Issue.record("the parted stroke's example has no path"); return }
        let partCount = closing.value["parts"]?.double.map(Int.init)
        #expect(partCount == parts.count, "the closing example names \(partCount ?? 0) parts, the schema has \(parts.count)")
        expected["parts"] = nil
        stroke["points"] = .array(parts.flatMap { part -> [JSONValue] in
            if case .array(let points)? = part.value["points"] { points } else { [] }
        })
        path["controlPoints"] = .array(parts.flatMap { part -> [JSONValue] in
            if case .array(let points)? = part.value["controlPoints"] { points } else { [] }
        })
        stroke["path"] = .object(path)
        expected["stroke"] = .object(stroke)
        let differences = ProtocolExamples.differences(.object(expected), written)
        #expect(differences.isEmpty, "\(differences)")
    }

    static func isParted(_ example: ProtocolExample) -> Bool { example.type == "stroke" && example.value["parts"] != nil }
}
