import ArgumentParser
import PenKit

/// Options shared by the commands that talk to penkitd.
struct DaemonClientOptions: ParsableArguments {
    @Option(help: "penkitd's socket (default: $PENKIT_SOCKET, $XDG_RUNTIME_DIR/penkit/penkit.sock, or /run/penkit/penkit.sock).")
    var socket: String?

    func connect() throws -> PenKitClient {
        do {
            return try PenKitClient(path: socket ?? PenKitClient.defaultSocketPath())
        } catch {
            throw RuntimeFailure("\(error)")
        }
    }
}

/// A fatal server error ends a command with its message.
struct ServerError: Error, CustomStringConvertible {
    var code: String
    var message: String
    var description: String { "penkitd: \(code): \(message)" }
}
