import PenKit

/// One top-level key of penkitd.conf, declared once: its name, the values it takes, its default,
/// whether a SIGHUP reload applies it, and what it means. `ConfigKeys.all` lists them; the
/// parser, the restart warnings of a reload, `status`'s settings and the checks of
/// systemd/penkitd.conf and docs/daemon.md (ConfigKeyTableTests) all read that list.
struct ConfigKey: Sendable {
    enum Applies: Sendable, Equatable {
        /// A SIGHUP reload applies it.
        case onReload
        /// Read at start only: a reload that changes it logs that it takes a restart.
        case afterRestart
    }

    typealias Reader = @Sendable (inout DaemonConfig, String) throws(ConfigValueError) -> Void

    let name: String
    /// The values it takes, as the docs say them: "1 to 10000", "true or false".
    let values: String
    /// As penkitd.conf's sample writes it; "" when the default is no value or depends on the host.
    let defaultValue: String
    let applies: Applies
    /// `status` (and so `penkit doctor`) shows it among the daemon-wide settings.
    let inStatus: Bool
    /// The comment above it in penkitd.conf's sample; "" when it shares the comment of the key before.
    let doc: String
    /// Reads a value into the config (throws what is wrong with it).
    let read: Reader
    /// The value in force, as the config file would say it.
    let shown: @Sendable (DaemonConfig) -> String
}

/// The value forms of `ConfigKeys`, each with its error wording.
extension ConfigKey {
    static func integer(_ name: String, _ field: WritableKeyPath<DaemonConfig, Int> & Sendable, default value: Int,
                        upTo maximum: Int? = nil, applies: Applies, inStatus: Bool = false, doc: String) -> ConfigKey {
        ConfigKey(name: name, values: maximum.map { "1 to \($0)" } ?? "a positive integer", defaultValue: String(value),
                  applies: applies, inStatus: inStatus, doc: doc,
                  read: { config, text throws(ConfigValueError) in config[keyPath: field] = try positive(name, text, upTo: maximum) },
                  shown: { String($0[keyPath: field]) })
    }

    static func boolean(_ name: String, _ field: WritableKeyPath<DaemonConfig, Bool> & Sendable, default value: Bool,
                        applies: Applies, inStatus: Bool = false, doc: String) -> ConfigKey {
        ConfigKey(name: name, values: "true or false", defaultValue: value ? "true" : "false",
                  applies: applies, inStatus: inStatus, doc: doc,
                  read: { config, text throws(ConfigValueError) in config[keyPath: field] = try ConfigValues.boolean(name, text) },
                  shown: { $0[keyPath: field] ? "true" : "false" })
    }

    /// Comma-separated names.
    static func list(_ name: String, _ field: WritableKeyPath<DaemonConfig, [String]> & Sendable,
                     applies: Applies, doc: String) -> ConfigKey {
        ConfigKey(name: name, values: "names, comma-separated", defaultValue: "", applies: applies, inStatus: false, doc: doc,
                  read: { config, text in
                      config[keyPath: field] = text.split(separator: ",").map { $0.trimmingWhitespace() }.filter { !$0.isEmpty }
                  },
                  shown: { $0[keyPath: field].joined(separator: ", ") })
    }

    /// Free text; empty is no value (the default). `resolve` makes what is kept of it (a path absolute).
    static func text(_ name: String, _ field: WritableKeyPath<DaemonConfig, String?> & Sendable,
                     resolve: @escaping @Sendable (String) -> String = { $0 }, applies: Applies, doc: String) -> ConfigKey {
        ConfigKey(name: name, values: "text", defaultValue: "", applies: applies, inStatus: false, doc: doc,
                  read: { config, text in config[keyPath: field] = text.isEmpty ? nil : resolve(text) },
                  shown: { $0[keyPath: field] ?? "" })
    }

    /// One of `choices`.
    static func choice(_ name: String, _ field: WritableKeyPath<DaemonConfig, String> & Sendable, _ choices: [String],
                       default value: String, applies: Applies, doc: String) -> ConfigKey {
        ConfigKey(name: name, values: choices.joined(separator: ", "), defaultValue: value, applies: applies, inStatus: false, doc: doc,
                  read: { config, text throws(ConfigValueError) in
                      guard choices.contains(text) else { throw ConfigValueError("\(name) must be one of \(choices.joined(separator: ", "))") }
                      config[keyPath: field] = text
                  },
                  shown: { $0[keyPath: field] })
    }

    static func positive(_ name: String, _ text: String, upTo maximum: Int?) throws(ConfigValueError) -> Int {
        guard let n = Int(text), n > 0 else { throw ConfigValueError("\(name) must be a positive integer, not \"\(text)\"") }
        if let maximum, n > maximum { throw ConfigValueError("\(name) must be from 1 to \(maximum), not \(n)") }
        return n
    }
}
