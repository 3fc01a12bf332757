import FoundationEssentials

/// `{"type":"settings","version":1,"set":[{"key":"pressure-curve","value":"0.2,0.1,0.8,0.9","section":"tool pen"}]}`
/// changes penkitd's settings; `"reset":true` first drops every change made this way
/// (docs/protocol.md, "Settings"). penkitd keeps the changes in its state directory, in
/// penkitd.conf's syntax, applied over the config file, and answers with `settings-saved`.
///
/// `section` is a config section's header without its brackets (`tool pen`, `device 056a:0059`);
/// without one the key is a top-level key. A change without `value` drops that key's override.
/// `imported` names the desktop a value was carried over from (`penkit settings import`): its
/// origin then says `import DESKTOP` rather than `override`.
public struct SettingsRequest: Sendable, Hashable, WireMessage {
    public struct Change: Sendable, Hashable, Codable {
        public var section: String?
        public var key: String
        public var value: String?
        /// `gnome` or `kde` for a value `penkit settings import` carried over; nil for one set by hand.
        public var imported: String?

        public init(section: String? = nil, key: String, value: String?, imported: String? = nil) {
            self.section = section
            self.key = key
            self.value = value
            self.imported = imported
        }
    }

    public var version: Int
    public var changes: [Change]
    public var reset: Bool

    /// More changes than a settings page makes at once is a client gone wrong.
    public static let maxChanges = 64
    /// A key, section or value longer than this is not one penkitd.conf holds.
    public static let maxFieldBytes = 1024

    public init(version: Int = PenProtocol.version, changes: [Change], reset: Bool = false) {
        self.version = version
        self.changes = changes
        self.reset = reset
    }

    public func write(to w: inout JSONWriter) {
        w.raw("{")
        w.field("type", plain: "settings")
        w.field("version", version)
        if reset { w.field("reset", true) }
        w.key("set")
        w.raw("[")
        for (index, change) in changes.enumerated() {
            if index > 0 { w.raw(",") }
            w.raw("{")
            if let section = change.section { w.field("section", string: section) }
            w.field("key", string: change.key)
            if let value = change.value { w.field("value", string: value) }
            if let imported = change.imported { w.field("imported", string: imported) }
            w.raw("}")
        }
        w.raw("]}")
    }

    public static func parse(_ line: [UInt8]) -> Result<SettingsRequest, ErrorMessage> {
        let shape = "a settings request is {\"type\":\"settings\",\"version\":1,\"set\":[{\"section\":S,\"key\":K,\"value\":V}],\"reset\":bool}"
        guard let fields = try? JSONDecoder().decode(Fields.self, from: Data(line)), fields.type == "settings" else {
            return .failure(ErrorMessage(code: .malformed, message: shape))
        }
        guard fields.version == PenProtocol.version else {
            return .failure(ErrorMessage(code: .unsupportedVersion, message: "this penkitd speaks version \(PenProtocol.version)"))
        }
        let changes = fields.set ?? []
        guard changes.count <= maxChanges else {
            return .failure(ErrorMessage(code: .outOfRange, message: "at most \(maxChanges) changes in one settings request"))
        }
        for change in changes {
            let texts = [change.key, change.section ?? "", change.value ?? "", change.imported ?? ""]
            // A newline or `#` would end the line or the value in penkitd.conf: refused, not stored mangled.
            if texts.contains(where: { $0.utf8.count > maxFieldBytes || $0.contains("\n") || $0.contains("\r") || $0.contains("#") })
                || change.key.isEmpty || change.key.contains("=") || (change.section ?? "").contains("]") {
                return .failure(ErrorMessage(code: .invalidSetting,
                                             message: "a key, section or value must be one line of at most \(maxFieldBytes) bytes, without '#'; a key without '=', a section without ']'"))
            }
        }
        if changes.isEmpty && fields.reset != true {
            return .failure(ErrorMessage(code: .malformed, message: "a settings request changes something: \"set\" or \"reset\""))
        }
        return .success(SettingsRequest(version: fields.version, changes: changes, reset: fields.reset ?? false))
    }

    private struct Fields: Decodable {
        var type: String
        var version: Int
        var set: [Change]?
        var reset: Bool?
    }
}

/// penkitd's answer to a `settings` request: the changes are saved in `file` and a reload applies
/// them now; the keys in `afterRestart` take effect when penkitd next starts.
/// `{"type":"settings-saved","file":"/var/lib/penkit/settings.conf","overrides":3,"afterRestart":["socket"]}`
public struct SettingsSavedMessage: Sendable, Hashable, WireMessage, Decodable {
    public var file: String
    /// How many overrides the file holds now.
    public var overrides: Int
    public var afterRestart: [String]

    public init(file: String, overrides: Int, afterRestart: [String]) {
        self.file = file
        self.overrides = overrides
        self.afterRestart = afterRestart
    }

    public func write(to w: inout JSONWriter) {
        w.raw("{")
        w.field("type", plain: "settings-saved")
        w.field("file", string: file)
        w.field("overrides", overrides)
        w.key("afterRestart")
        w.raw("[")
        for (index, key) in afterRestart.enumerated() {
            if index > 0 { w.raw(",") }
            w.string(key)
        }
        w.raw("]}")
    }
}
