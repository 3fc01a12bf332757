import ArgumentParser
import Foundation
import PenKit

/// Options shared by the commands that talk to penkitd.
struct DaemonClientOptions: ParsableArguments {
    @Option(help: "penkitd's socket (default: the first that answers of $PENKIT_SOCKET, $XDG_RUNTIME_DIR/penkit/penkit.sock, /run/penkit/penkit.sock).")
    var socket: String?

    /// EX_UNAVAILABLE (sysexits.h): the service is not there, which is not a usage error (64).
    static let unavailableExitCode: Int32 = 69

    /// Connects, or ends the command with one line on stderr and exit code 69.
    func connect(bufferLines: Int = PenKitClient.defaultBufferLines) throws -> PenKitClient {
        do {
            if let socket { return try PenKitClient(path: socket, bufferLines: bufferLines) }
            return try PenKitClient.discover(bufferLines: bufferLines)
        } catch let error as PenKitClient.Error {
            let hint = "; start it with `systemctl --user start penkit.socket` or `sudo systemctl enable --now penkit.socket`"
            FileHandle.standardError.write(Data("penkit: \(error.description)\(hint)\n".utf8))
        } catch {
            FileHandle.standardError.write(Data("penkit: \(error)\n".utf8))
        }
        throw ExitCode(Self.unavailableExitCode)
    }
}

/// A fatal server error ends a command with its message.
struct ServerError: Error, CustomStringConvertible {
    var code: String
    var message: String
    var description: String { "penkitd: \(code): \(message)" }
}
