import Foundation
import Testing

/// Inks from penkitd's config file, per tool type, in the strokes clients receive,
/// and a SIGHUP that changes them for the strokes that begin afterwards.
@Suite(.serialized)
struct DaemonInkTests {
    static let trace = "wacom-cintiq-22hdt-pen.evemu"  // pen, pencil, airbrush and the eraser end

    /// (tool type, ink type, colour, width) of a `stroke` line.
    static func inkOf(_ line: String) -> (tool: String, ink: String, color: String, width: Double)? {
        guard let stroke = object(line)["stroke"] as? [String: Any], let tool = stroke["tool"] as? [String: Any],
              let ink = stroke["ink"] as? [String: Any] else { return nil }
        return (tool["type"] as? String ?? "", ink["type"] as? String ?? "", ink["color"] as? String ?? "",
                (ink["width"] as? NSNumber)?.doubleValue ?? .nan)
    }

    @Test func strokesCarryTheConfiguredInkAndSighupChangesItForLaterStrokes() throws {
        let config = FileManager.default.temporaryDirectory.appendingPathComponent("penkitd-\(UUID().uuidString).conf").path
        defer { try? FileManager.default.removeItem(atPath: config) }
        try "ink-pen = marker ff0000ff 5\nink-eraser = eraser 000000ff 8\n".write(toFile: config, atomically: true, encoding: .utf8)
        let daemon = try DaemonProcess(["--replay", tracePath(Self.trace), "--loop", "--wait-clients", "1",
                                        "--history-strokes", "100000"], config: config)
        let client = try daemon.connect()
        try client.subscribe(["strokes"])
        var seen: Set<String> = []
        while seen.count < 4, let line = try client.readLine() {
            guard type(line) == "stroke", let ink = Self.inkOf(line) else { continue }
            seen.insert(ink.tool)
            switch ink.tool {
            case "pen": #expect(ink.ink == "marker" && ink.color == "#ff0000ff" && ink.width == 5)
            case "eraser": #expect(ink.ink == "eraser" && ink.width == 8)
            case "pencil": #expect(ink.ink == "pencil")
            case "airbrush": #expect(ink.ink == "marker")
            default: Issue.record("unexpected tool \(ink.tool)")
            }
        }
        #expect(seen == ["pen", "eraser", "pencil", "airbrush"])

        try "ink-pen = pencil 00ff00 2  # green\n".write(toFile: config, atomically: true, encoding: .utf8)
        daemon.signal(SIGHUP)
        try waitFor { daemon.log.contains("configuration reloaded") }
        // Strokes begun before the reload keep their ink; once one pen stroke has the new ink, all later ones do.
        var switched = false, penStrokes = 0
        while penStrokes < 400, let line = try client.readLine() {
            guard type(line) == "stroke", let ink = Self.inkOf(line), ink.tool == "pen" else { continue }
            penStrokes += 1
            if ink.ink == "pencil" {
                #expect(ink.color == "#00ff00ff" && ink.width == 2)
                switched = true
            } else {
                #expect(!switched, "a pen stroke with the old ink after one with the new")
            }
            if switched, penStrokes > 60 { break }
        }
        #expect(switched)
        #expect(daemon.stop() == 0)
    }

    @Test func anEraserInkOnAnotherToolIsRefusedWithFileAndLine() throws {
        let config = FileManager.default.temporaryDirectory.appendingPathComponent("penkitd-\(UUID().uuidString).conf").path
        defer { try? FileManager.default.removeItem(atPath: config) }
        try "ink-pencil = pencil 203040 1\nink-pen = eraser\n".write(toFile: config, atomically: true, encoding: .utf8)
        let result = try run([penkitdPath, "--config", config, "--socket", "/nonexistent/penkit.sock"])
        #expect(result.status != 0)
        #expect(result.output.contains("\(config):2: ink-pen: the eraser tool takes an eraser ink"))
    }
}
