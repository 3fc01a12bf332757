import ArgumentParser
import Foundation
import PenKit

/// `penkit settings get [KEY] [--json]`: every setting in force (or those named KEY), grouped as
/// penkitd.conf groups them, each with its origin.
struct SettingsGetCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "get",
        abstract: "Print the settings in force (or KEY's), each with where it came from.")

    @Argument(help: "Only this key (in every scope that has it).")
    var key: String?

    @Flag(help: "One JSON array of {scope, key, value, origin}.")
    var json = false

    @OptionGroup var daemon: DaemonClientOptions

    func run() async throws {
        let snapshot = try await SettingsSnapshot.fetch(try daemon.connect())
        let rows = snapshot.rows.filter { key == nil || $0.key == key }
        if let key, rows.isEmpty {
            FileHandle.standardError.write(Data("penkit: penkitd has no setting \(key) in force\n".utf8))
            throw ExitCode(1)
        }
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            print(String(decoding: try encoder.encode(rows), as: UTF8.self))
            return
        }
        var scope = ""
        for row in rows {
            if row.scope != scope {
                scope = row.scope
                print(scope == "daemon" ? "# daemon-wide" : "\n# \(Self.describe(scope, in: snapshot))")
            }
            print("\(row.key) = \(row.value)".padding(toLength: max(44, row.key.count + row.value.count + 4), withPad: " ", startingAt: 0)
                  + "# \(row.origin)")
        }
    }

    /// "device 1" as its name says it.
    static func describe(_ scope: String, in snapshot: SettingsSnapshot) -> String {
        let parts = scope.split(separator: " ")
        guard parts.count >= 2, let id = Int(parts[1]), let device = snapshot.devices.first(where: { $0.device == id }) else { return scope }
        return scope + " (\(device.name))"
    }
}
