import ArgumentParser

/// `penkit settings`: see and change penkitd's settings where people look for them, with where
/// each value came from (default, config file PATH:LINE, override, flag). A change goes to
/// penkitd over its socket; penkitd keeps it in its state directory over penkitd.conf and applies
/// it at once (docs/daemon.md, "Changing settings").
struct SettingsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "settings",
        abstract: "Show and change penkitd's settings, with where each value came from.",
        subcommands: [SettingsGetCommand.self, SettingsSetCommand.self, SettingsResetCommand.self,
                      SettingsImportCommand.self, SettingsExportCommand.self],
        defaultSubcommand: SettingsGetCommand.self)
}
