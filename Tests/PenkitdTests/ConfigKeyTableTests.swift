import Foundation
@testable import penkitd
import PenTestSupport
import Testing

/// `ConfigKeys` is the one declaration of penkitd.conf's top-level keys: the parser reads every
/// key through it, each default is what an empty file gives, a reload's restart warnings follow
/// it, and systemd/penkitd.conf and docs/daemon.md say what it says.
@Suite struct ConfigKeyTableTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

    @Test func eachDefaultIsWhatAnEmptyFileGivesAndReadsBackAsItself() throws {
        let defaults = DaemonConfig()
        for key in ConfigKeys.all {
            #expect(key.shown(defaults) == key.defaultValue, "\(key.name): declared \(key.defaultValue), in force \(key.shown(defaults))")
            guard !key.defaultValue.isEmpty else { continue }
            var config = DaemonConfig()
            try ConfigFile.set(key: key.name, value: key.defaultValue, in: &config)
            #expect(config == defaults, "\(key.name) = \(key.defaultValue) changes the config")
        }
    }

    @Test func aChangedKeyReadAtStartIsNamedByAReloadAndNoOther() throws {
        let old = DaemonConfig()
        for key in ConfigKeys.all {
            var new = old
            let other = key.name == "log-level" ? "debug" : key.values.hasPrefix("true") ? (key.defaultValue == "true" ? "false" : "true")
                : key.values == "text" || key.values.hasPrefix("names") ? "elsewhere" : key.name == "socket-mode" ? "0600"
                : key.name == "journal-fsync" ? "never" : "7"
            try ConfigFile.set(key: key.name, value: other, in: &new)
            #expect(new != old, "\(key.name) = \(other) changed nothing")
            let named = ConfigKeys.needingRestart(from: old, to: new)
            #expect(named == (key.applies == .afterRestart ? [key.name] : []), "\(key.name): \(named)")
        }
    }

    @Test func everyFlagOfPenkitdSetsADeclaredKey() throws {
        let command = try Penkitd.parse([
            "--socket", "/tmp/s", "--socket-group", "g", "--socket-mode", "0600", "--allow-users", "a", "--allow-groups", "b",
            "--history-strokes", "5", "--history-bytes", "5", "--client-buffer-bytes", "5", "--max-clients", "5",
            "--log-level", "debug", "--stroke-part-points", "5", "--state-dir", "/tmp/x", "--journal-fsync", "never",
            "--flight-recorder", "5", "--smoothing", "--warm-up", "--virtual-tablet", "--journal",
        ])
        let keys = command.configFlags.map(\.key)
        #expect(keys.allSatisfy { ConfigKeys.byName[$0] != nil }, "\(keys.filter { ConfigKeys.byName[$0] == nil })")
        #expect(command.configFlags.allSatisfy { $0.value != nil }, "a flag given is passed on: \(command.configFlags)")
    }

    /// systemd/penkitd.conf's top and docs/daemon.md's key table are generated from `ConfigKeys`:
    /// `make generated` (this suite with PENKIT_UPDATE_GENERATED=1) rewrites them, and without it
    /// the suite checks that they are up to date, so neither is edited by hand for a new key.
    static let updating = GeneratedDocBlock.updating

    @Test func theSampleConfigFileStartsWithTheGeneratedSample() throws {
        let path = Self.root + "/systemd/penkitd.conf"
        let file = try String(contentsOfFile: path, encoding: .utf8)
        let sample = ConfigSample.text
        // The hand-written part (the families `ink-…` and `action-…`, the sections) begins with the inks.
        let rest = file.range(of: "\n# Ink per tool type").map { String(file[$0.lowerBound...]) } ?? ""
        if Self.updating, !file.hasPrefix(sample) {
            try (sample + rest).write(toFile: path, atomically: true, encoding: .utf8)
        }
        let now = try String(contentsOfFile: path, encoding: .utf8)
        #expect(now.hasPrefix(sample), "systemd/penkitd.conf does not start with ConfigSample.text: run `make generated`")
    }

    static let tableStart = "<!-- the key table is generated from ConfigKeys (Sources/penkitd/Config): `make generated` -->\n"
    static let tableEnd = "<!-- end of the generated key table -->\n"

    @Test func theDocsKeyTableIsTheGeneratedOne() throws {
        let table = try GeneratedDocBlock(path: Self.root + "/docs/daemon.md", start: Self.tableStart, end: Self.tableEnd)
            .current(updatingTo: ConfigSample.docsTable)
        #expect(table == ConfigSample.docsTable, "docs/daemon.md's key table is not ConfigSample.docsTable: run `make generated`")
    }

    /// The generated table itself: a row per key, its default the declared one, and "restart" in it
    /// exactly for the keys read at start only.
    @Test func theGeneratedTableSaysWhatTheDeclarationSays() throws {
        let rows = ConfigSample.docsTable.split(separator: "\n").filter { $0.hasPrefix("| `") }
        #expect(rows.count == ConfigKeys.all.count)
        for key in ConfigKeys.all {
            let row = try #require(rows.first { $0.hasPrefix("| `\(key.name)` |") }, "no row for \(key.name)")
            let cells = row.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            if !key.defaultValue.isEmpty {
                #expect(cells[1].replacingOccurrences(of: "`", with: "") == key.defaultValue, "\(key.name): \(cells[1])")
            }
            #expect(cells[3] == (key.applies == .afterRestart ? "restart" : "applies it"), "\(key.name): \(row)")
        }
    }
}
