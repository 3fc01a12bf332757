/// Where each setting came from: `PATH:LINE` in the config file, or the flag. Users and groups
/// are looked up only when the peer policies are built, after parsing, and an error there must
/// still name the line (or flag) at fault; `penkit doctor` shows every effective setting with
/// its origin (the `status` request).
///
/// Keys are the top-level keys as written, and for a section's keys `device N KEY` (the N-th
/// `[device …]` section, from 0) and `tool TARGET KEY` (TARGET as `ToolTarget.originName`).
struct ConfigOrigins: Sendable, Equatable {
    private var places: [String: String] = [:]
    private var flags: Set<String> = []
    /// Keys last set by the settings changed through the socket (`SettingsOverrides`).
    private var overridden: Set<String> = []
    /// Of those, the ones `penkit settings import` carried over, by desktop.
    private var imported: [String: String] = [:]
    /// The file was read by a SIGHUP reload, not at start.
    var reloaded = false

    mutating func record(_ key: String, file: String, line: Int, override: Bool = false, importedFrom desktop: String? = nil) {
        places[key] = "\(file):\(line)"
        flags.remove(key)
        if override { overridden.insert(key) } else { overridden.remove(key) }
        imported[key] = override ? desktop : nil
    }

    mutating func record(flag key: String) {
        places[key] = "--\(key)"
        flags.insert(key)
        overridden.remove(key)
        imported[key] = nil
    }

    /// "PATH:LINE: " or "--KEY: " to put before an error about `key`; "" for a setting made in code.
    func prefix(_ key: String) -> String { places[key].map { "\($0): " } ?? "" }

    /// Where the value of `key` in force came from, as `penkit doctor` says it: "default",
    /// "flag --KEY", "config file PATH:LINE", "reload PATH:LINE" when a SIGHUP read it,
    /// "override PATH:LINE" for a change made through the socket, "import DESKTOP PATH:LINE" for
    /// one `penkit settings import` carried over.
    func origin(_ key: String) -> String {
        guard let place = places[key] else { return "default" }
        if flags.contains(key) { return "flag \(place)" }
        if let desktop = imported[key] { return "import \(desktop) \(place)" }
        if overridden.contains(key) { return "override \(place)" }
        return (reloaded ? "reload " : "config file ") + place
    }

    /// Whether `key` was set at all (by the file or a flag).
    func isSet(_ key: String) -> Bool { places[key] != nil }

    /// Where a setting came from is not part of it: a config read again with a comment line
    /// added is the same config.
    static func == (a: ConfigOrigins, b: ConfigOrigins) -> Bool { true }
}
