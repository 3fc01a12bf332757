import Foundation
import Testing

/// Settings changed through penkitd's socket (`penkit settings`, issue #45): kept in the state
/// directory over the config file, applied at once, surviving a restart, undone by `reset`, and
/// refused to a peer who may only draw. penkitd replays a real trace; the forces it sends are
/// checked against the same replay without the change, through the curve's own formula.
@Suite(.serialized)
struct SettingsChangeTests {
    static let trace = "wacom-intuos4-6x9-stylus-drag.evemu"
    /// A curve well above the diagonal: mid pressures come out much harder.
    static let curve = (x1: 0.0, y1: 0.6, x2: 0.4, y2: 1.0)
    static let curveText = "0, 0.6, 0.4, 1"
    static let penkitPath = URL(fileURLWithPath: penkitdPath).deletingLastPathComponent().appendingPathComponent("penkit").path

    @Test func aCurveSetThroughTheSocketShapesTheForceAndSurvivesARestart() throws {
        let state = try StateDirectoryFixture()
        let linear = try contactForces(stateDir: nil)

        let daemon = try DaemonProcess(["--replay", tracePath(Self.trace), "--wait-clients", "1", "--exit-after-replay"],
                                       stateDir: state.path)
        let set = try run([Self.penkitPath, "settings", "set", "pressure-curve", Self.curveText, "--tool", "pen", "--socket", daemon.socket])
        #expect(set.status == 0, "\(set.output)")
        #expect(set.output.contains("saved in \(state.path)/settings.conf"))
        try waitForLog(daemon, "configuration reloaded")
        let shaped = try contactForces(of: daemon)
        #expect(daemon.waitForExit() == 0)
        #expect(shaped.count == linear.count && shaped.count > 100)
        // Each force is the curve's y where its x is the force the same sample had without it.
        let worst = zip(linear, shaped).map { abs(Self.bezierY(atX: $0) - $1) }.max() ?? 1
        #expect(worst < 1e-3, "worst |curve(linear) - shaped| = \(worst)")
        #expect(zip(linear, shaped).contains { $1 > $0 + 0.1 }, "the curve changed nothing")

        // A new penkitd on the same state directory applies it from the start, and says where it came from.
        let restarted = try DaemonProcess(["--replay", tracePath(Self.trace), "--wait-clients", "1", "--exit-after-replay"],
                                          stateDir: state.path)
        let again = try contactForces(of: restarted)
        #expect(again == shaped)
        #expect(restarted.waitForExit() == 0)

        // Reset drops it: the file goes, and the next start is linear again.
        let third = try DaemonProcess(["--replay", tracePath(Self.trace), "--wait-clients", "1", "--exit-after-replay"],
                                      stateDir: state.path)
        let get = try run([Self.penkitPath, "settings", "get", "flight-recorder", "--json", "--socket", third.socket])
        #expect(get.status == 0 && get.output.contains("\"origin\":\"default\""), "\(get.output)")
        let reset = try run([Self.penkitPath, "settings", "reset", "--socket", third.socket])
        #expect(reset.status == 0, "\(reset.output)")
        #expect(!FileManager.default.fileExists(atPath: state.path + "/settings.conf"))
        try waitForLog(third, "configuration reloaded")
        #expect(try contactForces(of: third) == linear)
        #expect(third.waitForExit() == 0)
    }

    @Test func aBadValueChangesNothingAndNamesWhy() throws {
        let state = try StateDirectoryFixture()
        let daemon = try DaemonProcess([], stateDir: state.path)
        let bad = try run([Self.penkitPath, "settings", "set", "pressure-curve", "2, 2", "--tool", "pen", "--socket", daemon.socket])
        #expect(bad.status == 1)
        #expect(bad.output.contains("invalid_setting") && bad.output.contains("pressure-curve"), "\(bad.output)")
        let plumbing = try run([Self.penkitPath, "settings", "set", "allow-users", "nobody", "--socket", daemon.socket])
        #expect(plumbing.status == 77 && plumbing.output.contains("penkitd.conf"), "\(plumbing.output)")
        #expect(!FileManager.default.fileExists(atPath: state.path + "/settings.conf"))
        #expect(daemon.stop() == 0)
    }

    /// Requests sent together are answered in order, though penkitd writes the settings file
    /// after its lock (so that no pen stroke waits on the disk): the change's answer comes before
    /// the status request's that follows it in the same write.
    @Test func answersKeepTheirOrderWhileTheFileIsWritten() throws {
        let state = try StateDirectoryFixture()
        let daemon = try DaemonProcess([], stateDir: state.path)
        let connection = try daemon.connect()
        _ = try connection.readLine()  // hello
        try connection.send("""
            {"type":"settings","version":1,"set":[{"key":"flight-recorder","value":"30"}]}
            {"type":"settings","version":1,"set":[{"section":"tool pen","key":"tip-threshold","value":"0.1"}]}
            {"type":"status","version":1}

            """)
        let lines = try connection.read(until: { $0.contains(#""type":"status""#) })
        let types = lines.compactMap { line in line.range(of: #""type":""#).map { String(line[$0.upperBound...].prefix { $0 != "\"" }) } }
        #expect(types == ["settings-saved", "settings-saved", "status"], "\(lines)")
        #expect(lines.first?.contains(#""overrides":1"#) == true && lines.dropFirst().first?.contains(#""overrides":2"#) == true, "\(lines)")
        let overrides = try String(contentsOfFile: state.path + "/settings.conf", encoding: .utf8)
        #expect(overrides.contains("flight-recorder = 30") && overrides.contains("tip-threshold = 0.1"), "\(overrides)")
        #expect(daemon.stop() == 0)
    }

    /// A second, real uid that may draw (allow-users) but not change settings.
    @Test func aPeerWhoMayOnlyDrawIsRefused() throws {
        let state = try StateDirectoryFixture()
        let directory = try TemporaryDirectory()
        let config = directory.path + "/penkitd.conf"
        try "allow-users = nobody\n".write(toFile: config, atomically: true, encoding: .utf8)
        let daemon = try DaemonProcess([], socketMode: "0666", config: config, stateDir: state.path)
        let refused = try runAsNobody([Self.penkitPath, "settings", "set", "pressure-curve", Self.curveText, "--tool", "pen",
                                       "--socket", daemon.socket])
        #expect(refused.status == 77, "\(refused.output)")
        #expect(refused.output.contains("settings_refused") && refused.output.contains("penkit-admin"), "\(refused.output)")
        // nobody still reads settings; root still changes them.
        let read = try runAsNobody([Self.penkitPath, "settings", "get", "--socket", daemon.socket])
        #expect(read.status == 0 && read.output.contains("flight-recorder"), "\(read.output)")
        #expect(!FileManager.default.fileExists(atPath: state.path + "/settings.conf"))
        #expect(daemon.log.contains("refused a settings change"))
        #expect(daemon.stop() == 0)
    }

    /// The forces of every contact frame of one replay of the trace.
    private func contactForces(stateDir: String?) throws -> [Double] {
        let daemon = try DaemonProcess(["--replay", tracePath(Self.trace), "--wait-clients", "1", "--exit-after-replay"],
                                       stateDir: stateDir)
        defer { _ = daemon.waitForExit() }
        return try contactForces(of: daemon)
    }

    private func contactForces(of daemon: DaemonProcess) throws -> [Double] {
        let client = try daemon.connect()
        try client.subscribe(["frames"])
        return try client.readAll().filter { type($0) == "frame" && object($0)["stroke"] != nil }.compactMap {
            ((object($0)["sample"] as? [String: Any])?["force"] as? NSNumber)?.doubleValue
        }
    }

    private func waitForLog(_ daemon: DaemonProcess, _ text: String) throws {
        let deadline = Date().addingTimeInterval(30)
        while !daemon.log.contains(text) {
            guard Date() < deadline else { throw TestFailure("penkitd did not log \(text): \(daemon.log.suffix(600))") }
            usleep(20_000)
        }
    }

    /// The cubic Bézier from (0,0) to (1,1) through the control points, as GNOME's Wacom panel
    /// and xf86-input-wacom define a pressure curve: y where x(t) = x, t found by bisection.
    static func bezierY(atX x: Double) -> Double {
        func coordinate(_ t: Double, _ c1: Double, _ c2: Double) -> Double {
            3 * (1 - t) * (1 - t) * t * c1 + 3 * (1 - t) * t * t * c2 + t * t * t
        }
        var low = 0.0, high = 1.0
        for _ in 0..<80 {
            let mid = (low + high) / 2
            if coordinate(mid, curve.x1, curve.x2) < x { low = mid } else { high = mid }
        }
        return coordinate((low + high) / 2, curve.y1, curve.y2)
    }
}
