import Foundation
import Testing

/// `penkit settings import` into a running penkitd replaying a real trace (the Intuos4 6x9,
/// 056a:00b9, 223.52 × 139.7 mm): GNOME's settings read through the installed schemas and
/// gsettings (keyfile backend, set with `gsettings set`), KDE's from a kcminputrc. A dry run
/// writes nothing; the import's values then show in `penkit settings get` with origin override.
@Suite(.serialized)
struct SettingsImportIntoDaemonTests {
    static let trace = "wacom-intuos4-6x9-stylus-drag.evemu"
    static let penkitPath = URL(fileURLWithPath: penkitdPath).deletingLastPathComponent().appendingPathComponent("penkit").path

    @Test func gnomeSettingsImportedIntoPenkitd() throws {
        let state = try StateDirectoryFixture()
        let home = state.path + "/home"
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        let env = ["/usr/bin/env", "GSETTINGS_BACKEND=keyfile", "XDG_CONFIG_HOME=\(home)", "HOME=\(home)"]
        for (schema, path, key, value) in [
            ("org.gnome.desktop.peripherals.tablet", "/org/gnome/desktop/peripherals/tablets/056a:00b9/", "area", "[0.1, 0.2, 0.05, 0.15]"),
            ("org.gnome.desktop.peripherals.tablet", "/org/gnome/desktop/peripherals/tablets/056a:00b9/", "left-handed", "true"),
            ("org.gnome.desktop.peripherals.tablet.stylus", "/org/gnome/desktop/peripherals/stylus/default-056a:00b9/", "pressure-curve", "[0, 30, 70, 100]"),
            ("org.gnome.desktop.peripherals.tablet.stylus", "/org/gnome/desktop/peripherals/stylus/default-056a:00b9/", "button-action", "'right'"),
        ] {
            let set = try run(env + ["/usr/bin/gsettings", "set", "\(schema):\(path)", key, value])
            #expect(set.status == 0, "\(set.output)")
        }
        let daemon = try DaemonProcess(["--replay", tracePath(Self.trace), "--wait-clients", "1"], stateDir: state.path)
        let import_ = env + [Self.penkitPath, "settings", "import", "--from", "gnome", "--mutter-version", "43.8", "--socket", daemon.socket]

        let dry = try run(import_ + ["--dry-run", "--json"])
        #expect(dry.status == 0, "\(dry.output)")
        let plan = try JSONSerialization.jsonObject(with: Data(dry.output.utf8)) as? [String: Any]
        let settings = plan?["settings"] as? [[String: Any]] ?? []
        #expect(settings.contains { $0["key"] as? String == "area" && $0["value"] as? String == "22.352, 6.985, 156.464, 111.76" }, "\(dry.output)")
        #expect(settings.contains { $0["key"] as? String == "button-1" && $0["value"] as? String == "right" }, "\(dry.output)")
        #expect(!FileManager.default.fileExists(atPath: state.path + "/settings.conf"), "a dry run wrote the settings")

        let real = try run(import_)
        #expect(real.status == 0 && real.output.contains("saved in \(state.path)/settings.conf"), "\(real.output)")
        try waitForLog(daemon, "configuration reloaded")
        let get = try run([Self.penkitPath, "settings", "get", "--json", "--socket", daemon.socket])
        let rows = try JSONSerialization.jsonObject(with: Data(get.output.utf8)) as? [[String: String]] ?? []
        let area = rows.first { $0["scope"] == "device 1" && $0["key"] == "area" }
        #expect(area?["value"] == "22.352, 6.985, 156.464, 111.76", "\(get.output)")
        #expect(area?["origin"]?.hasPrefix("import gnome \(state.path)/settings.conf:") == true, "\(get.output)")
        let leftHanded = rows.first { $0["scope"] == "device 1" && $0["key"] == "left-handed" }
        #expect(leftHanded?["value"] == "true" && leftHanded?["origin"]?.hasPrefix("import gnome ") == true, "\(get.output)")
        let overrides = try String(contentsOfFile: state.path + "/settings.conf", encoding: .utf8)
        #expect(overrides.contains("pressure-curve = 0.33333333, 0.43333333, 0.66666667, 0.76666667"), "\(overrides)")
        // GNOME's right click on the lower barrel button, kept as the pen's button-1 (no tool has
        // come near yet, so `get` has no tool rows to show it in).
        #expect(overrides.contains("# imported from gnome\nbutton-1 = right"), "\(overrides)")
        _ = daemon.stop()
    }

    @Test func kdeSettingsImportedIntoPenkitd() throws {
        let state = try StateDirectoryFixture()
        let config = state.path + "/config"
        try FileManager.default.createDirectory(atPath: config, withIntermediateDirectories: true)
        try """
            [Libinput][1386][185][Wacom Intuos4 6x9]
            InputArea=0.25,0,0.5,0.75
            LeftHanded=true
            TabletToolPressureCurve=0.1,0.5;0.6,0.9;
            """.write(toFile: config + "/kcminputrc", atomically: true, encoding: .utf8)
        let daemon = try DaemonProcess(["--replay", tracePath(Self.trace), "--wait-clients", "1"], stateDir: state.path)
        let result = try run(["/usr/bin/env", "XDG_CONFIG_HOME=\(config)", Self.penkitPath, "settings", "import", "--from", "kde", "--socket", daemon.socket])
        #expect(result.status == 0, "\(result.output)")
        try waitForLog(daemon, "configuration reloaded")
        let get = try run([Self.penkitPath, "settings", "get", "--json", "--socket", daemon.socket])
        let rows = try JSONSerialization.jsonObject(with: Data(get.output.utf8)) as? [[String: String]] ?? []
        let area = rows.first { $0["scope"] == "device 1" && $0["key"] == "area" }
        #expect(area?["value"] == "55.88, 0, 111.76, 104.775" && area?["origin"]?.hasPrefix("import kde ") == true, "\(get.output)")
        let overrides = try String(contentsOfFile: state.path + "/settings.conf", encoding: .utf8)
        #expect(overrides.contains("pressure-curve = 0.1, 0.5, 0.6, 0.9"), "\(overrides)")
        // A value set by hand afterwards is an override again, the others stay imported.
        let set = try run([Self.penkitPath, "settings", "set", "left-handed", "false", "--device", "056a:00b9", "--socket", daemon.socket])
        #expect(set.status == 0, "\(set.output)")
        try waitForLog(daemon, "configuration reloaded", count: 2)
        let after = try JSONSerialization.jsonObject(with: Data(try run([Self.penkitPath, "settings", "get", "--json", "--socket", daemon.socket]).output.utf8)) as? [[String: String]] ?? []
        let hand = after.first { $0["scope"] == "device 1" && $0["key"] == "left-handed" }
        #expect(hand?["value"] == "false" && hand?["origin"]?.hasPrefix("override ") == true, "\(after)")
        #expect(after.first { $0["scope"] == "device 1" && $0["key"] == "area" }?["origin"]?.hasPrefix("import kde ") == true, "\(after)")
        _ = daemon.stop()
    }

    private func waitForLog(_ daemon: DaemonProcess, _ text: String, count: Int = 1) throws {
        let deadline = Date().addingTimeInterval(30)
        while daemon.log.components(separatedBy: text).count - 1 < count {
            guard Date() < deadline else { throw TestFailure("penkitd did not log \(text): \(daemon.log.suffix(600))") }
            usleep(20_000)
        }
    }
}
