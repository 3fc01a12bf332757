import ArgumentParser
import PenKit

extension Penkitd {
    /// ArgumentParser's own main, except that Foundation's file errors read as plain sentences.
    static func main() {
        LargeAllocations.returnToSystemWhenFreed()
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch {
            exit(withError: PlainError.replacingFoundationErrors(error))
        }
    }
}
