import Foundation

/// Reads GSettings through the `gsettings` tool (libglib2.0-bin), so whatever backend the session
/// uses (dconf, or the keyfile GSETTINGS_BACKEND=keyfile selects) and the schemas installed are
/// the real ones. Relocatable schemas are read at a path: `SCHEMA:PATH`.
struct GSettingsReader: Sendable {
    var tool: String
    /// The environment gsettings runs in; nil for penkit's own (GSETTINGS_BACKEND, XDG_CONFIG_HOME
    /// and DBUS_SESSION_BUS_ADDRESS choose where it reads).
    var environment: [String: String]?

    init?(environment: [String: String]? = nil) {
        self.environment = environment
        guard let tool = ["/usr/bin/gsettings", "/bin/gsettings"].first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            return nil
        }
        self.tool = tool
    }

    /// The keys `schema` has (a schema of another version may lack some): nil when it is not installed.
    func keys(_ schema: String) -> Set<String>? {
        guard let out = run(["list-keys", schema]) else { return nil }
        return Set(out.split(separator: "\n").map(String.init))
    }

    /// The value's text as gsettings prints it (GVariant text: `[0, 0, 100, 100]`, `'default'`, `true`).
    func get(_ schema: String, path: String, key: String) -> String? {
        run(["get", "\(schema):\(path)", key])
    }

    private func run(_ arguments: [String]) -> String? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        if let environment { process.environment = environment }
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return nil }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The numbers of a GVariant array's text (`[0.1, 0.0, 0.0, 0.0]`, `@ai [0, 0, 100, 100]`).
    static func numbers(_ text: String) -> [Double] {
        guard let open = text.firstIndex(of: "["), let close = text.lastIndex(of: "]"), open < close else { return [] }
        return text[text.index(after: open)..<close].split(separator: ",").compactMap {
            Double($0.trimmingCharacters(in: .whitespaces))
        }
    }

    /// A GVariant string's or enum's text without its quotes.
    static func word(_ text: String) -> String {
        text.trimmingCharacters(in: CharacterSet(charactersIn: "'\""))
    }
}
