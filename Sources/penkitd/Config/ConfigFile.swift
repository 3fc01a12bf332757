import FoundationEssentials
import PenKit
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The config file: `key = value` lines, `#` comments, lists comma-separated.
/// Unknown keys and bad values are errors naming the line, never ignored.
enum ConfigFile {
    struct Error: Swift.Error, CustomStringConvertible {
        var path: String
        var line: Int
        var message: String
        /// `path:line: message`; a problem with the whole file (line 0) names no line.
        var description: String { line > 0 ? "\(path):\(line): \(message)" : "config file \(path) \(message)" }
    }

    /// The default location: /etc/penkit/penkitd.conf for the system service,
    /// $XDG_CONFIG_HOME/penkit/penkitd.conf (or ~/.config/…) for a user.
    static func defaultPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if getuid() == 0 { return "/etc/penkit/penkitd.conf" }
        if let xdg = environment["XDG_CONFIG_HOME"], !xdg.isEmpty { return xdg + "/penkit/penkitd.conf" }
        return (environment["HOME"] ?? "/") + "/.config/penkit/penkitd.conf"
    }

    /// Applies the file at `path` over `config`. A missing file is fine when `required` is false;
    /// so is one that is there but cannot be read (no permission, a directory, ...), which is
    /// skipped and returned as the reason, for the caller to warn: the default path may lie in a
    /// HOME the user cannot read, while a file the user named (`required`) must be read.
    /// What is read and wrong stays fatal either way.
    ///
    /// An `overlay` (the settings changed through the socket, `SettingsOverrides`) goes over what
    /// the config file set: its sections add to the file's, and its origins say `override`.
    @discardableResult
    static func apply(path: String, required: Bool, to config: inout DaemonConfig, overlay: Bool = false,
                      isStopping: () -> Bool = { false }) throws -> Error? {
        let bytes: [UInt8]
        do {
            bytes = try contents(path: path, isStopping: isStopping)
        } catch .missing(let error) {
            if required { throw error }
            return nil
        } catch .unreadable(let error) {
            if required { throw error }
            return error
        } catch .invalid(let error) {
            throw error
        } catch .stopped {
            throw StoppedWhileStarting()
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            // A newline byte is never inside a UTF-8 sequence, so lines can be checked one by one.
            let lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false)
            let bad = lines.firstIndex { String(validating: $0, as: UTF8.self) == nil } ?? -1
            throw Error(path: path, line: bad + 1, message: bad >= 0 ? "this line is not UTF-8 text" : "is not UTF-8 text")
        }
        // A re-read starts the sections afresh: they are the file's, not merged with an earlier read.
        if !overlay {
            config.devices = DeviceSections()
            config.feel = ToolFeelChoice()
        }
        var section = ConfigSection.top
        // In the overrides, the desktop the next key was imported from (`SettingsOverrides.importedMark`).
        var imported: String?
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if overlay, raw.hasPrefix(SettingsOverrides.importedMark) {
                imported = String(raw.dropFirst(SettingsOverrides.importedMark.count).trimmingWhitespace())
                continue
            }
            let line = raw.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            let trimmed = line.trimmingWhitespace()
            if trimmed.isEmpty { continue }
            do {
                if let header = try ConfigSection.header(trimmed) {
                    section = header
                    if case .device(let match) = header { config.devices.begin(match) }
                    continue
                }
            } catch {
                throw Error(path: path, line: index + 1, message: error.message)
            }
            guard let eq = trimmed.firstIndex(of: "=") else {
                throw Error(path: path, line: index + 1, message: "expected key = value")
            }
            let key = trimmed[..<eq].trimmingWhitespace()
            let value = trimmed[trimmed.index(after: eq)...].trimmingWhitespace()
            do {
                let origin = try set(key: key, value: value, in: section, of: &config)
                config.origins.record(origin, file: path, line: index + 1, override: overlay, importedFrom: imported)
                imported = nil
            } catch {
                throw Error(path: path, line: index + 1, message: error.message)
            }
        }
        return nil
    }

    /// Why a file's bytes were not had: not there, there but not readable, read but not a
    /// config (too large), or a stop came while reading.
    private enum Unread: Swift.Error {
        case missing(Error), unreadable(Error), invalid(Error), stopped
    }

    /// The file's bytes. Only a regular file (or /dev/null) is read (`ConfigFileType`);
    /// `isStopping` is still checked every 25 ms while it is, in case it is swapped for a FIFO
    /// after the check.
    private static func contents(path: String, isStopping: () -> Bool) throws(Unread) -> [UInt8] {
        func cannotRead(_ code: Int32) -> Error {
            Error(path: path, line: 0, message: "cannot be read: \(String(cString: strerror(code)))")
        }
        switch ConfigFileType.status(path) {
        case .failure(let error) where error.code == ENOENT:
            throw .missing(cannotRead(ENOENT))
        case .failure(let error):
            throw .unreadable(cannotRead(error.code))
        case .success(let status):
            if let kind = ConfigFileType.refusal(status) {
                throw .unreadable(Error(path: path, line: 0,
                                        message: "is not a regular file (\(kind)): penkitd reads its config only from a file"))
            }
        }
        do {
            return try InterruptibleRead.read(path: path, limit: 1 << 20, isStopping: isStopping)
        } catch {
            switch error {
            case .stopped: throw .stopped
            case .open(ENOENT): throw .missing(cannotRead(ENOENT))
            case .open(let code), .read(let code): throw .unreadable(cannotRead(code))
            case .tooLarge: throw .invalid(Error(path: path, line: 0, message: "cannot be read: it is larger than 1 MiB"))
            case .refused(let reason): throw .unreadable(Error(path: path, line: 0, message: reason))
            }
        }
    }

    /// Sets `key` in `section` (after `ConfigSection.header` read it); the key `ConfigOrigins` files it under.
    static func set(key: String, value: String, in section: ConfigSection, of config: inout DaemonConfig) throws(ConfigValueError) -> String {
        switch section {
        case .top:
            try set(key: key, value: value, in: &config)
            return InkChoice.originKey(key)
        case .device:
            try config.devices.set(key: key, value: value)
            return "device \(config.devices.sections.count - 1) \(key)"
        case .tool(let target):
            try config.feel.set(key: key, value: value, for: target)
            return "tool \(target.originName) \(key)"
        }
    }

    /// Whether `key = value` may stand in `section` (a header's text without brackets; nil: the
    /// top), as a line of the file would be checked, without changing any config.
    static func check(section: String?, key: String, value: String) throws(ConfigValueError) {
        var scratch = DaemonConfig()
        let parsed = try section.map { text throws(ConfigValueError) in try ConfigSection.header("[\(text)]") ?? .top } ?? .top
        if case .device(let match) = parsed { scratch.devices.begin(match) }
        _ = try set(key: key, value: value, in: parsed, of: &scratch)
    }

    static func set(key: String, value: String, in config: inout DaemonConfig) throws(ConfigValueError) {
        if let declared = ConfigKeys.byName[key] { return try declared.read(&config, value) }
        if try config.inks.set(key: key, value: value) { return }
        if try config.actions.set(key: key, value: value) { return }
        throw ConfigValueError("unknown key \"\(key)\" (known: \(DaemonConfig.keys.joined(separator: ", ")))")
    }
}

/// A bad value for one key; ConfigFile adds the file and line.
struct ConfigValueError: Swift.Error {
    var message: String
    init(_ message: String) { self.message = message }
}
