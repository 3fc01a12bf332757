import ArgumentParser
import PenKit

/// `penkit devices`: the tablets penkitd serves.
struct DevicesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "devices",
        abstract: "List the tablets penkitd reads."
    )

    @OptionGroup var daemon: DaemonClientOptions

    func run() async throws {
        let client = try daemon.connect()
        for try await message in client.messages {
            if case .hello(let hello) = message {
                let (version, devices, lastSeq, settings) = (hello.version, hello.devices, hello.lastSeq, hello.settings)
                if devices.isEmpty { print("no tablets") }
                for d in devices { print(DeviceListing.text(d)) }
                print("protocol \(version), last stroke \(lastSeq), " + settings.keys.sorted().map { "\($0)=\(settings[$0]!)" }.joined(separator: " "))
                client.disconnect()
                return
            }
            if case .error(let code, let text, _) = message { throw ServerError(code: code, message: text) }
        }
    }
}
