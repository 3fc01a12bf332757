import ArgumentParser
import PenKit

extension Penkit {
    /// ArgumentParser's own main, except that Foundation's file errors read as plain sentences.
    static func main() async {
        do {
            var command = try parseAsRoot()
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            exit(withError: PlainError.replacingFoundationErrors(error))
        }
    }
}
