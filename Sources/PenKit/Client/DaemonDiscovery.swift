import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Where a client looks for penkitd: `$PENKIT_SOCKET`, then the user service's socket
/// (`$XDG_RUNTIME_DIR/penkit/penkit.sock`), then the system service's (`/run/penkit/penkit.sock`).
/// The first that accepts a connection wins, so a user without a user service still finds the
/// system one.
public enum DaemonDiscovery {
    public static let systemSocketPath = "/run/penkit/penkit.sock"

    /// The places to try, in order, without duplicates.
    public static func candidates(environment: [String: String] = ProcessInfo.processInfo.environment) -> [String] {
        var paths: [String] = []
        if let explicit = environment["PENKIT_SOCKET"], !explicit.isEmpty { paths.append(explicit) }
        if let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty { paths.append(runtime + "/penkit/penkit.sock") }
        paths.append(systemSocketPath)
        var seen = Set<String>()
        return paths.filter { seen.insert($0).inserted }
    }

    /// Connects to the first candidate that answers, or throws `NotFound` naming every path tried.
    public static func connect(environment: [String: String] = ProcessInfo.processInfo.environment,
                               bufferLines: Int = PenKitClient.defaultBufferLines) throws -> PenKitClient {
        var failures: [NotFound.Attempt] = []
        for path in candidates(environment: environment) {
            do {
                return try PenKitClient(path: path, bufferLines: bufferLines)
            } catch let error as PenKitClient.Error {
                failures.append(NotFound.Attempt(path: path, reason: error.reason ?? error.description))
            }
        }
        throw NotFound(attempts: failures)
    }

    /// No candidate answered. Its description is one line: each path with why it failed, and how
    /// to start the service.
    public struct NotFound: Error, CustomStringConvertible, Sendable {
        public struct Attempt: Sendable, Hashable {
            public var path: String
            public var reason: String
        }
        public var attempts: [Attempt]

        public var description: String {
            let tried = attempts.map { "\($0.path) (\($0.reason))" }.joined(separator: ", ")
            return "no penkitd answered at \(tried); start it with `systemctl --user start penkit.socket`, "
                + "or `sudo systemctl enable --now penkit.socket` and join the penkit group, "
                + "or point PENKIT_SOCKET at its socket"
        }
    }
}
