import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The settings changed through the socket (`penkit settings set`, `penkit view`'s settings page),
/// kept in the state directory as `settings.conf`, in penkitd.conf's syntax. penkitd reads it over
/// the config file at start and at every reload (flags still win), so a change survives restarts;
/// `penkit settings reset` removes it. penkitd writes it whole and renames it into place, so a
/// crash leaves the old file or the new one, never half of one.
struct SettingsOverrides: Sendable, Equatable {
    struct Entry: Sendable, Equatable {
        /// A section header's text without its brackets (`tool pen`); nil for a top-level key.
        var section: String?
        var key: String
        var value: String
        /// The desktop it was carried over from (`penkit settings import`), kept in the file as
        /// a comment line before it: its origin says `import DESKTOP`.
        var imported: String? = nil
    }

    /// The comment line before an imported entry: `# imported from gnome`.
    static let importedMark = "# imported from "


    static let fileName = "settings.conf"

    private(set) var entries: [Entry] = []

    static func path(stateDirectory: String) -> String { stateDirectory + "/" + fileName }

    /// Sets `key` in `section`, replacing an earlier override of it; a nil value drops it.
    mutating func set(section: String?, key: String, value: String?, imported: String? = nil) {
        let section = section.map { String($0.trimmingWhitespace()) }.flatMap { $0.isEmpty ? nil : $0 }
        entries.removeAll { $0.section == section && $0.key == key }
        if let value { entries.append(Entry(section: section, key: key, value: value, imported: imported)) }
    }

    /// The file's text: top-level keys first, then each section's, in the order first set.
    var text: String {
        var lines = ["# penkitd's settings changed through its socket (penkit settings, penkit view's settings page).",
                     "# Applied over penkitd.conf; `penkit settings reset` removes this file."]
        func add(_ entry: Entry) {
            if let desktop = entry.imported { lines.append(Self.importedMark + desktop) }
            lines.append("\(entry.key) = \(entry.value)")
        }
        for entry in entries where entry.section == nil { add(entry) }
        var sections: [String] = []
        for entry in entries { if let s = entry.section, !sections.contains(s) { sections.append(s) } }
        for section in sections {
            lines.append("")
            lines.append("[\(section)]")
            for entry in entries where entry.section == section { add(entry) }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Reads the file penkitd wrote (no file: no overrides). Its values are checked when the
    /// config is loaded (`ConfigFile.apply`, overlay), which names the line of a bad one.
    static func load(path: String) throws -> SettingsOverrides {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        guard fd >= 0 else {
            if errno == ENOENT { return SettingsOverrides() }
            throw DaemonError("cannot read \(path): \(String(cString: strerror(errno)))")
        }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0, errno == EINTR { continue }
            guard n >= 0 else { throw DaemonError("cannot read \(path): \(String(cString: strerror(errno)))") }
            if n == 0 { break }
            bytes += chunk[..<n]
            // penkitd writes a few hundred bytes: a bigger file is not its own.
            guard bytes.count <= 1 << 20 else { throw DaemonError("\(path) is over 1 MiB: not a settings file penkitd wrote") }
        }
        let text = String(decoding: bytes, as: UTF8.self)
        var overrides = SettingsOverrides()
        var section: String?
        var imported: String?
        for raw in text.split(separator: "\n") {
            if raw.hasPrefix(Self.importedMark) {
                imported = String(raw.dropFirst(Self.importedMark.count).trimmingWhitespace())
                continue
            }
            let line = raw.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first?.trimmingWhitespace() ?? ""
            if line.isEmpty { continue }
            if line.hasPrefix("["), line.hasSuffix("]") {
                section = String(line.dropFirst().dropLast().trimmingWhitespace())
            } else if let eq = line.firstIndex(of: "=") {
                overrides.entries.append(Entry(section: section, key: String(line[..<eq].trimmingWhitespace()),
                                               value: String(line[line.index(after: eq)...].trimmingWhitespace()),
                                               imported: imported))
                imported = nil
            }
        }
        return overrides
    }

    /// Writes the file whole (mode 0644: the settings are no secret), synced, then renamed into place.
    func save(to path: String) throws {
        let temporary = path + ".new"
        let bytes = Array(text.utf8)
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0o644)
        guard fd >= 0 else { throw DaemonError("cannot write \(temporary): \(String(cString: strerror(errno)))") }
        var written = 0
        while written < bytes.count {
            let n = bytes[written...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else {
                let reason = String(cString: strerror(errno))
                close(fd)
                unlink(temporary)
                throw DaemonError("cannot write \(temporary): \(reason)")
            }
            written += n
        }
        let synced = fsync(fd) == 0
        close(fd)
        guard synced, rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw DaemonError("cannot put \(path) in place: \(reason)")
        }
    }

    /// `penkit settings reset`: the file goes; no file is fine.
    static func remove(path: String) throws {
        guard unlink(path) == 0 || errno == ENOENT else {
            throw DaemonError("cannot remove \(path): \(String(cString: strerror(errno)))")
        }
    }
}
