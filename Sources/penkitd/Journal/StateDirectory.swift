import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Where penkitd keeps state (the stroke journal) when no `state-dir` is configured:
/// systemd's `$STATE_DIRECTORY` (StateDirectory=, for the system and the user unit),
/// else `/var/lib/penkit` for root, else `$XDG_STATE_HOME/penkit` (default `~/.local/state/penkit`).
enum StateDirectory {
    static func resolve(configured: String?, environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let configured { return configured }
        // systemd passes a colon-separated list when a unit names several directories.
        if let systemd = environment["STATE_DIRECTORY"]?.split(separator: ":").first, !systemd.isEmpty {
            return String(systemd)
        }
        if getuid() == 0 { return "/var/lib/penkit" }
        if let xdg = environment["XDG_STATE_HOME"], xdg.hasPrefix("/") { return xdg + "/penkit" }
        return (environment["HOME"] ?? "/") + "/.local/state/penkit"
    }
}
