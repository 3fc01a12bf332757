import PenEngine
import PenKit

/// Which ink each tool draws with, from the config file: `ink-TOOL = INK` per tool
/// type and `ink-serial-SERIAL = INK` per tool serial (decimal or 0x hex), INK as
/// `Ink(spec:)` reads it. Tool types left out keep the engine's defaults.
struct InkChoice: Sendable, Equatable {
    var byType: [ToolType: Ink] = [:]
    var bySerial: [UInt64: Ink] = [:]

    /// Sets one `ink-…` key; false when the key is not an ink key.
    mutating func set(key: String, value: String) throws(ConfigValueError) -> Bool {
        guard key.hasPrefix("ink-") else { return false }
        let target = key.dropFirst(4)
        let ink: Ink
        do { ink = try Ink(spec: value) } catch { throw ConfigValueError("\(key): \(error)") }
        if target.hasPrefix("serial-") {
            let text = target.dropFirst(7)
            let serial = text.hasPrefix("0x") ? UInt64(text.dropFirst(2), radix: 16) : UInt64(text)
            guard let serial, serial != 0 else { throw ConfigValueError("\(key): the serial must be a nonzero number, like 0x1234") }
            bySerial[serial] = ink
        } else {
            guard let tool = ToolType(rawValue: String(target)) else {
                throw ConfigValueError("unknown tool in \(key) (known: \(ToolType.allCases.map(\.rawValue).joined(separator: ", ")))")
            }
            byType[tool] = ink
        }
        if (key == "ink-eraser") != ink.isEraser, !key.hasPrefix("ink-serial-") {
            throw ConfigValueError("\(key): the eraser tool takes an eraser ink, and only it does")
        }
        return true
    }

    /// How `ConfigOrigins` keys a serial's ink, however the file wrote the serial.
    static func originKey(serial: UInt64) -> String { "ink-serial-0x" + String(serial, radix: 16) }

    /// `key` as `ConfigOrigins` keys it: a serial's ink in one spelling, any other key as it is.
    static func originKey(_ key: String) -> String {
        guard key.hasPrefix("ink-serial-"), let serial = ToolTarget.serial(String(key.dropFirst(11))) else { return key }
        return originKey(serial: serial)
    }

    /// The engine's inks with these choices over them.
    func applied(to configuration: EngineConfiguration) -> EngineConfiguration {
        var result = configuration
        result.inks.merge(byType) { $1 }
        result.serialInks = bySerial
        return result
    }
}

/// The ink choice in force, replaced on SIGHUP and picked up when a stroke may begin.
typealias SharedInkChoice = SharedSetting<InkChoice>
