import Foundation
@testable import penkitd
import Testing

/// The overrides file (`settings.conf`): written as penkitd.conf's syntax, read back the same,
/// and applied over the config file with origins that say where each value came from: an
/// imported one (`penkit settings import`) as `import DESKTOP PATH:LINE`, one set by hand as
/// `override PATH:LINE`.
@Suite struct SettingsOverridesTests {
    @Test func importedValuesRoundTripAndSayWhereTheyCameFrom() throws {
        var overrides = SettingsOverrides()
        overrides.set(section: "tool pen", key: "pressure-curve", value: "0, 0.3, 0.7, 1", imported: "gnome")
        overrides.set(section: "tool pen", key: "button-1", value: "right", imported: "gnome")
        overrides.set(section: nil, key: "virtual-tablet", value: "true")
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("settings-\(getpid())-\(UUID().uuidString).conf").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try overrides.save(to: path)
        let loaded = try SettingsOverrides.load(path: path)
        #expect(loaded.entries.count == overrides.entries.count && overrides.entries.allSatisfy(loaded.entries.contains), "\(loaded)")

        // The line each key is on, read off the file penkitd wrote.
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        func line(_ prefix: String) throws -> Int { try #require(lines.firstIndex { $0.hasPrefix(prefix) }) + 1 }
        #expect(lines[try line("button-1") - 2] == "# imported from gnome")

        var config = DaemonConfig()
        try ConfigFile.apply(path: path, required: true, to: &config, overlay: true)
        #expect(config.origins.origin("tool pen pressure-curve") == "import gnome \(path):\(try line("pressure-curve"))")
        #expect(config.origins.origin("tool pen button-1") == "import gnome \(path):\(try line("button-1"))")
        #expect(config.origins.origin("virtual-tablet") == "override \(path):\(try line("virtual-tablet"))")

        // Set again by hand, the value is an override: the mark goes with the old value.
        overrides.set(section: "tool pen", key: "button-1", value: "middle")
        try overrides.save(to: path)
        var again = DaemonConfig()
        try ConfigFile.apply(path: path, required: true, to: &again, overlay: true)
        #expect(again.origins.origin("tool pen button-1").hasPrefix("override "))
        #expect(again.origins.origin("tool pen pressure-curve").hasPrefix("import gnome "))
    }
}
