import Foundation
import PenTestSupport
import Testing

/// The `action` and `pad` messages against docs/protocol.schema.json, through the same strict
/// check as ProtocolSchemaTests (scripts/check-protocol-schema.py): the actions a spawned penkitd
/// really sends for a real trace's barrel buttons validate, with every key declared, and
/// malformed action and pad lines are refused.
@Suite(.serialized)
struct ActionSchemaTests {
    /// The checker's exit status and report for `lines`.
    static func check(_ lines: [String]) throws -> (status: Int32, report: String) {
        try ProtocolSchemaCheck.run(lines)
    }

    /// Every line a penkitd replaying the Cintiq trace sends on `channels`, with preferred actions
    /// for its barrel buttons in the config (the trace presses both, and one twice quickly).
    static func cintiqSessionWithActions(_ channels: [String]) throws -> [String] {
        let config = FileManager.default.temporaryDirectory.appendingPathComponent("penkitd-\(UUID().uuidString).conf").path
        defer { try? FileManager.default.removeItem(atPath: config) }
        try "action-stylus = switchEraser\naction-stylus-double = showColorPalette\naction-stylus2 = myApp.tool-2\naction-double-press-ms = 600\n"
            .write(toFile: config, atomically: true, encoding: .utf8)
        let daemon = try DaemonProcess(["--replay", tracePath("wacom-cintiq-22hdt-pen.evemu"), "--wait-clients", "1",
                                        "--exit-after-replay"], config: config)
        let client = try daemon.connect()
        try client.subscribe(channels)
        let lines = try client.readAll(timeout: 120)
        _ = daemon.waitForExit()
        return lines
    }

    @Test func theActionsOfARealTraceValidateWithEveryKeyDeclared() throws {
        let lines = try Self.cintiqSessionWithActions(["buttons", "actions"])
        let actions = lines.filter { type($0) == "action" }
        #expect(Set(actions.compactMap { object($0)["action"] as? String }) == ["switchEraser", "showColorPalette", "myApp.tool-2"])
        #expect(lines.contains { type($0) == "button" })
        let (status, report) = try Self.check(lines)
        #expect(status == 0, "\(report)")
    }

    @Test func malformedActionAndPadLinesAreRefusedAndAPadLineAsLibinputGivesItPasses() throws {
        let bad = [
            #"{"type":"action","action":"switch eraser","device":1,"t":5,"source":{"trigger":"stylus","kind":"stylus","button":331,"press":"single"}}"#,
            #"{"type":"action","action":"ignore","device":1,"t":5,"source":{"trigger":"stylus4","kind":"stylus","button":331,"press":"single"}}"#,
            #"{"type":"pad","device":3,"t":5,"event":"button","group":0,"mode":0}"#,
            #"{"type":"pad","device":3,"t":5,"event":"ring","number":0,"position":400,"source":"finger","group":0,"mode":0}"#,
        ]
        for line in bad { #expect(try Self.check([line]).status != 0, "accepted: \(line)") }
        // As the e2e VM's penkitd sent it for libinput's ring lift (scripts/vm/e2e-guest.sh).
        let lift = #"{"type":"pad","device":2,"t":405349758,"event":"ring","number":0,"position":-1.0,"source":"finger","group":0,"mode":0}"#
        let (status, report) = try Self.check([lift])
        #expect(status == 0, "\(report)")
    }
}
