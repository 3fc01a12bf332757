import Foundation
import Testing

/// docs/protocol.schema.json against what a spawned penkitd really sends: every line of a replay
/// with a mapping, an output rectangle and a pressure curve (so `mapping`, `outputX`, `rawForce`
/// and `device` all occur), checked by python3-jsonschema, a validator that is not penkit's.
@Suite struct ProtocolSchemaTests {
    @Test func everyLineOfAMappedReplayMatchesTheSchema() throws {
        let config = "[device *]\nrotation = 90\narea = 10, 10, 300, 200\noutput = 0, 0, 1080, 1920\n"
            + "[tool pen]\npressure-curve = 0.2, 0.5, 0.8, 0.9\npressure-min = 0.02\n"
        let capture = try ReplayCapture(trace: "wacom-cintiq-22hdt-pen.evemu", config: config)
        let seen = Set(capture.messages.compactMap { $0["type"] as? String })
        #expect(seen.isSuperset(of: ["hello", "subscribed", "proximity", "frame", "update", "began", "ended", "stroke", "device"]))
        #expect(capture.frames.contains { $0.dictionary("sample")["rawForce"] != nil })
        #expect(capture.frames.contains { $0.dictionary("sample")["outputX"] != nil })

        let linesPath = FileManager.default.temporaryDirectory.appendingPathComponent("penkit-lines-\(UUID().uuidString).jsonl").path
        defer { try? FileManager.default.removeItem(atPath: linesPath) }
        try capture.lines.joined(separator: "\n").write(toFile: linesPath, atomically: true, encoding: .utf8)
        let script = """
        import json, sys, jsonschema
        schema = json.load(open(sys.argv[1]))
        validator = jsonschema.Draft202012Validator(schema)
        bad = 0
        for number, line in enumerate(open(sys.argv[2]), 1):
            for error in validator.iter_errors(json.loads(line)):
                bad += 1
                if bad <= 5: print(f"line {number}: {error.message[:300]}")
        print(f"checked {number} lines, {bad} errors")
        sys.exit(1 if bad else 0)
        """
        let (status, output) = try run("/usr/bin/python3", ["-c", script, repositoryRoot + "/docs/protocol.schema.json", linesPath])
        #expect(status == 0, "\(output)")
        #expect(output.contains("checked \(capture.lines.count) lines, 0 errors"), "\(output)")
    }
}
