import ArgumentParser
import Foundation
import PenKit

/// `penkit settings export`: the settings in force as a penkitd.conf, each line with its origin,
/// to keep, to diff, or to put in place as /etc/penkit/penkitd.conf.
struct SettingsExportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Print the daemon-wide settings in force as a penkitd.conf, with origins as comments.")

    @OptionGroup var daemon: DaemonClientOptions

    func run() async throws {
        let snapshot = try await SettingsSnapshot.fetch(try daemon.connect())
        print("# penkitd's settings in force, from penkit settings export (\(snapshot.configFile.map { "config file \($0)" } ?? "no config file"))")
        for row in snapshot.rows where row.scope == "daemon" {
            print("\(row.key) = \(row.value)  # \(row.origin)")
        }
    }
}
