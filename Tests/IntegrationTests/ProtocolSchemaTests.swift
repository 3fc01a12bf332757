import Foundation
import PenTestSupport
import Testing

/// docs/protocol.schema.json against what penkitd really sends: every line a client receives
/// from a replay (all channels, with predictions, and an error), checked by a real JSON Schema
/// validator (Debian's python3-jsonschema, `make deps`) through scripts/check-protocol-schema.py,
/// which also refuses a property the schema does not declare.
@Suite(.serialized)
struct ProtocolSchemaTests {
    @Test func everyLinePenkitdSendsIsValidAndDeclaredByTheSchema() throws {
        // A deep live buffer: the replay is unpaced, and on a busy machine this reader may fall
        // behind; every contact frame must reach it for the count below to mean anything.
        let config = FileManager.default.temporaryDirectory.appendingPathComponent("schema-\(UUID().uuidString.prefix(8)).conf").path
        try "client-live-buffer-bytes = 1073741824\n".write(toFile: config, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: config) }
        let daemon = try DaemonProcess(["--replay", tracePath("wacom-dth2242-pen.evemu"),
                                        "--wait-clients", "1", "--exit-after-replay"], config: config)
        let refused = try daemon.connect()
        var lines = [try refused.readLine() ?? ""]
        let badRequest = "{\"type\":\"subscribe\",\"version\":99}"
        try refused.send(badRequest + "\n")
        lines += try refused.read(until: { type($0) == "error" })

        let client = try daemon.connect()
        lines.append(try client.readLine() ?? "")
        let request = "{\"type\":\"subscribe\",\"version\":1,\"channels\":[\"frames\",\"updates\",\"strokes\",\"buttons\",\"devices\"],"
            + "\"predict\":{\"horizonMs\":24}}"
        try client.send(request + "\n")
        lines.append(request)
        lines += try client.readAll()
        #expect(daemon.waitForExit() == 0)

        let seen = Set(lines.map(type))
        #expect(!seen.contains("dropped"), "frames were dropped for this client: the counts below would not be the trace's")
        for kind in ["hello", "subscribe", "subscribed", "device", "proximity", "frame", "began", "ended", "stroke",
                     "error", "shutdown"] {
            #expect(seen.contains(kind), "no \(kind) line to check")
        }
        // docs/protocol.md: every frame carries predicted samples while a predictor runs; at a
        // predicted lift the last one lies at the lift, so even a lift due now leaves one.
        let frames = lines.filter { type($0) == "frame" }.map(object)
        let hover = frames.filter { $0["stroke"] == nil }, contact = frames.filter { $0["stroke"] != nil }
        func predicted(_ frame: [String: Any]) -> Bool { !((frame["predicted"] as? [Any]) ?? []).isEmpty }
        #expect(!hover.isEmpty && hover.allSatisfy(predicted), "every hover frame carries predicted samples")
        #expect(contact.count > 100 && contact.allSatisfy(predicted),
                "\(contact.filter(predicted).count) of \(contact.count) contact frames carry predicted samples")
        // docs/protocol.md: the property name "location" is reserved, never sent.
        #expect(!lines.contains { $0.contains("\"location\"") })
        let (status, report) = try checkSchema(lines)
        #expect(status == 0, "\(report)")
    }

    /// The same for a device the config file maps and a tool whose feel shapes its pressure, so that
    /// the device's `mapping`, samples' `outputX`/`outputY` and `rawForce`, and every message's `device` occur.
    @Test func aMappedReplayWithAPressureCurveIsValidAndDeclared() throws {
        let config = "[device *]\nrotation = 90\narea = 10, 10, 300, 200\noutput = 0, 0, 1080, 1920\n"
            + "[tool pen]\npressure-curve = 0.2, 0.5, 0.8, 0.9\npressure-min = 0.02\n"
        // The DTH2242 sends no tilt, so its strokes have updates (the tilt filled in later) to carry `device` too.
        let capture = try ReplayCapture(trace: "wacom-dth2242-pen.evemu", config: config)
        let seen = Set(capture.messages.compactMap { $0["type"] as? String })
        #expect(seen.isSuperset(of: ["hello", "subscribed", "proximity", "frame", "update", "began", "ended", "stroke", "device"]))
        #expect(capture.device["mapping"] != nil)
        #expect(capture.frames.contains { $0.dictionary("sample")["rawForce"] != nil })
        #expect(capture.frames.contains { $0.dictionary("sample")["outputX"] != nil })
        let (status, report) = try checkSchema(capture.lines)
        #expect(status == 0, "\(report)")
    }

    /// A client that takes strokes in parts, with parts small enough that the trace's strokes come in
    /// many: its request, `subscribed`, every `strokePart` and closing `stroke` line.
    @Test func strokesInPartsAreValidAndDeclared() throws {
        let daemon = try DaemonProcess(["--replay", tracePath("wacom-dth2242-pen.evemu"), "--wait-clients", "1",
                                        "--exit-after-replay", "--stroke-part-points", "8"])
        let client = try daemon.connect()
        var lines = [try client.readLine() ?? ""]
        let request = "{\"type\":\"subscribe\",\"version\":1,\"channels\":[\"strokes\"],\"strokeParts\":true}"
        try client.send(request + "\n")
        lines.append(request)
        lines += try client.readAll()
        #expect(daemon.waitForExit() == 0)
        #expect(lines.contains { type($0) == "strokePart" })
        #expect(lines.contains { type($0) == "stroke" && object($0)["parts"] != nil })
        let (status, report) = try checkSchema(lines)
        #expect(status == 0, "\(report)")
    }

    private func checkSchema(_ lines: [String]) throws -> (Int32, String) {
        let (status, report) = try ProtocolSchemaCheck.run(lines)
        print("protocol schema: " + report.split(separator: "\n").joined(separator: "; "))
        return (status, report)
    }
}
