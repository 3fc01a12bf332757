import PenKit

/// The user's preferred actions, system-wide: `action-TRIGGER = NAME` per trigger
/// (`ActionTrigger`: `stylus`, `stylus2`, `stylus3`, `pad-N`, each also with `-double`) and
/// `action-double-press-ms`, the most time from one press to the next that makes a double press.
/// NAME is one of `PreferredAction.standard` or a custom name. Reloaded on SIGHUP.
struct ActionMap: Sendable, Equatable {
    var actions: [ActionTrigger: String] = [:]
    /// 300 ms, as long as a deliberate double click usually takes (GNOME's default is 400).
    var doublePressMicroseconds: UInt64 = 300_000

    static let keys = ["action-TRIGGER", "action-double-press-ms"]

    /// Sets one `action-…` key; false when the key is not an action key.
    mutating func set(key: String, value: String) throws(ConfigValueError) -> Bool {
        guard key.hasPrefix("action-") else { return false }
        if key == "action-double-press-ms" {
            guard let ms = UInt64(value), (1...5_000).contains(ms) else {
                throw ConfigValueError("action-double-press-ms must be an integer from 1 to 5000, not \"\(value)\"")
            }
            doublePressMicroseconds = ms * 1_000
            return true
        }
        guard let trigger = ActionTrigger(name: String(key.dropFirst(7))) else {
            throw ConfigValueError("unknown trigger in \(key) (known: stylus, stylus2, stylus3, pad-N, each also with -double)")
        }
        guard PreferredAction.isValid(value) else {
            throw ConfigValueError("\(key): \"\(value)\" is not an action name (\(PreferredAction.standard.joined(separator: ", ")), or a name of letters, digits, . _ - starting with a letter, at most 64)")
        }
        actions[trigger] = value
        return true
    }
}
