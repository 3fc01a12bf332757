import Foundation
import Testing

/// docs/protocol.schema.json against what a spawned penkitd really sends over its socket: every
/// line of a replayed real trace, on every channel (actions included), must validate, and a line
/// the schema must refuse is refused. The validator is Python's `jsonschema` (Debian's
/// python3-jsonschema, which `make deps` installs).
@Suite(.serialized)
struct ProtocolSchemaTests {
    static let schema = repositoryRoot + "/docs/protocol.schema.json"

    /// Validates each line of `lines` against the schema; returns the validator's report (empty when all are valid).
    static func invalidLines(_ lines: [String]) throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("schema-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try lines.joined(separator: "\n").write(toFile: directory + "/lines.jsonl", atomically: true, encoding: .utf8)
        let script = """
            import json, sys, jsonschema
            schema = json.load(open(sys.argv[1]))
            validator = jsonschema.Draft202012Validator(schema)
            for n, line in enumerate(open(sys.argv[2]), 1):
                errors = list(validator.iter_errors(json.loads(line)))
                if errors: print(f"line {n}: {line.strip()[:160]}: {errors[0].message[:200]}")
            """
        let result = try run(["/usr/bin/env", "python3", "-c", script, schema, directory + "/lines.jsonl"])
        if result.output.contains("ModuleNotFoundError") {
            throw TestFailure("python3 has no jsonschema module: install python3-jsonschema (make deps)")
        }
        return result.output
    }

    @Test func everyLineOfARealSessionValidatesAgainstTheSchema() throws {
        let config = FileManager.default.temporaryDirectory.appendingPathComponent("penkitd-\(UUID().uuidString).conf").path
        defer { try? FileManager.default.removeItem(atPath: config) }
        try "action-stylus = switchEraser\naction-stylus-double = showColorPalette\naction-stylus2 = myApp.tool-2\naction-double-press-ms = 600\n"
            .write(toFile: config, atomically: true, encoding: .utf8)
        let daemon = try DaemonProcess(["--replay", tracePath("wacom-cintiq-22hdt-pen.evemu"), "--wait-clients", "1",
                                        "--exit-after-replay"], config: config)
        let client = try daemon.connect()
        try client.subscribe(["frames", "updates", "strokes", "buttons", "devices", "actions"])
        var lines: [String] = []
        while let line = try client.readLine() { lines.append(line) }
        let types = Set(lines.map { type($0) })
        for expected in ["hello", "subscribed", "device", "proximity", "button", "frame", "began", "ended", "stroke", "action", "shutdown"] {
            #expect(types.contains(expected), "no \(expected) line in the session")
        }
        let actionNames = Set(lines.filter { type($0) == "action" }.compactMap { object($0)["action"] as? String })
        #expect(actionNames == ["switchEraser", "showColorPalette", "myApp.tool-2"])
        #expect(try Self.invalidLines(lines) == "")
        _ = daemon.waitForExit()
    }

    @Test func theSchemaRefusesMalformedActionAndPadLines() throws {
        let bad = [
            #"{"type":"action","action":"switch eraser","device":1,"t":5,"source":{"trigger":"stylus","kind":"stylus","button":331,"press":"single"}}"#,
            #"{"type":"action","action":"ignore","device":1,"t":5,"source":{"trigger":"stylus4","kind":"stylus","button":331,"press":"single"}}"#,
            #"{"type":"pad","device":3,"t":5,"event":"button","group":0,"mode":0}"#,
            #"{"type":"pad","device":3,"t":5,"event":"ring","number":0,"position":400,"source":"finger","group":0,"mode":0}"#,
        ]
        let report = try Self.invalidLines(bad)
        for n in 1...bad.count { #expect(report.contains("line \(n): "), "line \(n) was accepted: \(bad[n - 1])") }
        #expect(try Self.invalidLines([#"{"type":"pad","device":3,"t":5,"event":"strip","number":0,"position":-1,"source":"finger","group":0,"mode":0}"#]) == "")
    }
}
