import Foundation
import Testing

/// The user's preferred actions (`action-…` in penkitd's config) on the `actions` channel,
/// from the barrel-button presses of a real trace, over the socket of a spawned penkitd;
/// a SIGHUP changes them without a restart.
@Suite(.serialized)
struct DaemonActionTests {
    static let trace = "wacom-cintiq-22hdt-pen.evemu"  // BTN_STYLUS and BTN_STYLUS2 presses, some 0.46-0.58 s apart

    /// The trace's own times (µs): its first and last event and every press of `code` (EV_KEY value 1).
    struct TraceTimes {
        var first: UInt64 = .max, last: UInt64 = 0
        var presses: [UInt32: [UInt64]] = [:]

        init(_ path: String) throws {
            for line in try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n") where line.hasPrefix("E: ") {
                let fields = line.dropFirst(3).split(separator: " ", omittingEmptySubsequences: true)
                let seconds = fields[0].split(separator: ".")
                let time = UInt64(seconds[0])! * 1_000_000 + UInt64(seconds[1])!
                first = min(first, time)
                last = max(last, time)
                if fields[1] == "0001", fields[3].hasPrefix("0001"), let code = UInt32(fields[2], radix: 16) {
                    presses[code, default: []].append(time)
                }
            }
        }
    }

    /// The rule docs/daemon.md states, applied to the trace's press times: a press within
    /// `interval` of a held press makes a double; a held press with none is a single at its own time.
    static func expected(presses: [UInt64], interval: UInt64) -> [(time: UInt64, double: Bool)] {
        var result: [(time: UInt64, double: Bool)] = []
        var held: UInt64?
        for press in presses {
            if let first = held, press - first <= interval {
                result.append((press, true))
                held = nil
            } else {
                if let first = held { result.append((first, false)) }
                held = press
            }
        }
        if let first = held { result.append((first, false)) }
        return result
    }

    struct Action: Equatable {
        var action: String, trigger: String, press: String, button: Int, time: UInt64
        init?(_ line: String) {
            let o = object(line)
            guard o["type"] as? String == "action", let source = o["source"] as? [String: Any] else { return nil }
            action = o["action"] as? String ?? ""
            trigger = source["trigger"] as? String ?? ""
            press = source["press"] as? String ?? ""
            button = (source["button"] as? NSNumber)?.intValue ?? -1
            time = (o["t"] as? NSNumber)?.uint64Value ?? 0
        }
    }

    @Test func barrelButtonsSendTheConfiguredActionsAndADoublePressIsItsOwnTrigger() throws {
        let times = try TraceTimes(tracePath(Self.trace))
        let stylus = times.presses[0x14b] ?? [], stylus2 = times.presses[0x14c] ?? []
        let expectedStylus = Self.expected(presses: stylus, interval: 600_000)
        // The trace must hold what this test is about: double presses, and singles between them.
        #expect(expectedStylus.contains { $0.double } && expectedStylus.contains { !$0.double } && !stylus2.isEmpty)

        let config = FileManager.default.temporaryDirectory.appendingPathComponent("penkitd-\(UUID().uuidString).conf").path
        defer { try? FileManager.default.removeItem(atPath: config) }
        try """
            action-stylus = switchEraser
            action-stylus-double = showColorPalette
            action-stylus2 = showInkAttributes   # no double: sent at the press
            action-double-press-ms = 600
            """.write(toFile: config, atomically: true, encoding: .utf8)
        let daemon = try DaemonProcess(["--replay", tracePath(Self.trace), "--loop", "--wait-clients", "1"], config: config)
        let client = try daemon.connect()
        try client.subscribe(["actions"])

        // The first pass of the loop: every action whose press lies in the trace (the next pass's are later).
        var firstPass: [Action] = []
        while let line = try client.readLine() {
            guard let action = Action(line) else { continue }
            if action.time > times.last { break }
            firstPass.append(action)
        }
        let gotStylus = firstPass.filter { $0.button == 0x14b }
        #expect(gotStylus.map(\.time) == expectedStylus.map(\.time))
        #expect(gotStylus.map(\.action) == expectedStylus.map { $0.double ? "showColorPalette" : "switchEraser" })
        #expect(gotStylus.map(\.trigger) == expectedStylus.map { $0.double ? "stylus-double" : "stylus" })
        #expect(gotStylus.map(\.press) == expectedStylus.map { $0.double ? "double" : "single" })
        let gotStylus2 = firstPass.filter { $0.button == 0x14c }
        #expect(gotStylus2.map(\.time) == stylus2)
        #expect(gotStylus2.allSatisfy { $0.action == "showInkAttributes" && $0.trigger == "stylus2" && $0.press == "single" })
        #expect(firstPass.count == gotStylus.count + gotStylus2.count)

        // A reload: no double mapping any more, so every BTN_STYLUS press is a single at once; a custom name for BTN_STYLUS2.
        try "action-stylus = switchPrevious\naction-stylus2 = myApp.nextBrush\n".write(toFile: config, atomically: true, encoding: .utf8)
        daemon.signal(SIGHUP)
        try waitFor { daemon.log.contains("configuration reloaded") }
        let span = times.last - times.first + 1_000_000  // one pass of `--loop`, as docs/daemon.md says
        var switched = false
        var newPresses: [UInt64] = []
        while newPresses.count < stylus.count, let line = try client.readLine() {
            guard let action = Action(line) else { continue }
            if !switched {
                switched = ["switchPrevious", "myApp.nextBrush"].contains(action.action)
                if !switched { continue }
            }
            let offset = (action.time - times.first) % span + times.first
            if action.button == 0x14b {
                #expect(action.action == "switchPrevious" && action.press == "single")
                #expect(stylus.contains(offset))
                newPresses.append(offset)
            } else {
                #expect(action.action == "myApp.nextBrush" && action.trigger == "stylus2")
                #expect(stylus2.contains(offset))
            }
        }
        #expect(newPresses.count == stylus.count)
        #expect(daemon.stop() == 0)
    }

    @Test func aBadActionKeyOrNameIsRefusedWithFileAndLine() throws {
        let config = FileManager.default.temporaryDirectory.appendingPathComponent("penkitd-\(UUID().uuidString).conf").path
        defer { try? FileManager.default.removeItem(atPath: config) }
        for (text, message) in [("action-stylus4 = ignore\n", ":1: unknown trigger in action-stylus4"),
                                ("action-pad-0 = ignore\naction-pad-1 = \"quoted\"\n", ":2: action-pad-1: \"\"quoted\"\" is not an action name"),
                                ("action-double-press-ms = 0\n", ":1: action-double-press-ms must be an integer from 1 to 5000")] {
            try text.write(toFile: config, atomically: true, encoding: .utf8)
            let result = try run([penkitdPath, "--config", config, "--socket", "/nonexistent/penkit.sock"])
            #expect(result.status != 0)
            #expect(result.output.contains(config + message), "\(result.output)")
        }
    }
}
