/// Where each top-level setting came from: `PATH:LINE` in the config file, or the flag. Users
/// and groups are looked up only when the peer policies are built, after parsing, and an error
/// there must still name the line (or flag) at fault.
struct ConfigOrigins: Sendable, Equatable {
    private var places: [String: String] = [:]

    mutating func record(_ key: String, file: String, line: Int) { places[key] = "\(file):\(line)" }
    mutating func record(flag key: String) { places[key] = "--\(key)" }

    /// "PATH:LINE: " or "--KEY: " to put before an error about `key`; "" for a setting made in code.
    func prefix(_ key: String) -> String { places[key].map { "\($0): " } ?? "" }

    /// Where a setting came from is not part of it: a config read again with a comment line
    /// added is the same config.
    static func == (a: ConfigOrigins, b: ConfigOrigins) -> Bool { true }
}
