import ArgumentParser
import Foundation
import PenKit

/// `penkit settings set KEY VALUE [--tool TOOL | --device MATCH]`: one change, kept by penkitd
/// over its config file and applied at once (a key read at start only: from its next start).
struct SettingsSetCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "set",
        abstract: "Change a setting; penkitd keeps it over penkitd.conf and applies it now.",
        discussion: """
            KEY and VALUE as penkitd.conf takes them (docs/daemon.md). With --tool or --device, the key \
            goes in that section: --tool pen sets [tool pen], --device 056a:0059 sets [device 056a:0059]. \
            An empty VALUE drops the change, so the config file's value (or the default) is in force again. \
            Root, penkitd's user and the members of penkit-admin may change settings.
            """)

    @Argument(help: "The key, as in penkitd.conf.")
    var key: String

    @Argument(help: "The value, as in penkitd.conf; \"\" drops this key's change.")
    var value: String

    @Option(help: "The tool section: pen, eraser, brush, pencil, airbrush, mouse, lens, or \"serial 0x…\".")
    var tool: String?

    @Option(help: "The device section's match, as in [device MATCH] (e.g. 056a:0059, or name=…).")
    var device: String?

    @OptionGroup var daemon: DaemonClientOptions

    func validate() throws {
        if tool != nil && device != nil { throw ValidationError("--tool and --device name two sections: give one") }
    }

    func run() async throws {
        let section = tool.map { "tool \($0)" } ?? device.map { "device \($0)" }
        let change = SettingsRequest.Change(section: section, key: key, value: value.isEmpty ? nil : value)
        try await SettingsChange.send(SettingsRequest(changes: [change]), through: try daemon.connect())
    }
}

/// `penkit settings reset`: drops every change made through penkitd's socket.
struct SettingsResetCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reset",
        abstract: "Drop every setting changed with penkit settings (penkitd.conf's values apply again).")

    @OptionGroup var daemon: DaemonClientOptions

    func run() async throws {
        try await SettingsChange.send(SettingsRequest(changes: [], reset: true), through: try daemon.connect())
    }
}

/// Sends a `settings` request and says what penkitd answered.
enum SettingsChange {
    static func send(_ request: SettingsRequest, through client: PenKitClient, quiet: Bool = false) async throws {
        try client.send(request.jsonLine())
        for try await message in client.messages {
            switch message {
            case .settingsSaved(let saved):
                if quiet { return }
                print("saved in \(saved.file) (\(saved.overrides) change(s) over the config file); penkitd applies them now")
                if !saved.afterRestart.isEmpty {
                    print("takes effect when penkitd next starts: \(saved.afterRestart.joined(separator: ", "))")
                }
                return
            case .error(let code, let text, _):
                FileHandle.standardError.write(Data("penkit: penkitd: \(code): \(text)\n".utf8))
                throw ExitCode(code == ErrorMessage.Code.settingsRefused.rawValue ? 77 : 1)
            default:
                continue
            }
        }
        throw ServerError(code: "closed", message: "penkitd closed the connection before answering")
    }
}
