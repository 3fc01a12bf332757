import PenEngine
import PenKit

/// penkitd's settings in force, as `status` reports them: per tablet (mapping), per tool seen on
/// it (feel and ink), and daemon-wide, each value with its origin (`ConfigOrigins.origin`).
/// A value is always the one the engine uses, defaults included, in the config file's syntax
/// where there is one.
enum EffectiveSettings {
    typealias Setting = StatusMessage.Setting

    /// The `[device …]` keys for `device`: the last matching section that sets a key wins, as
    /// `DeviceSections.settings(for:)` applies them.
    static func device(_ device: DeviceInfo, config: DaemonConfig) -> [Setting] {
        let settings = config.devices.settings(for: device)
        var origins: [String: String] = [:]
        for (index, section) in config.devices.sections.enumerated() where section.match.matches(device) {
            for entry in section.entries { origins[entry.key] = config.origins.origin("device \(index) \(entry.key)") }
        }
        func rect(_ r: MappingRect?, _ otherwise: String) -> String {
            r.map { "\(number($0.x)), \(number($0.y)), \(number($0.width)), \(number($0.height))" } ?? otherwise
        }
        let values: [(String, String)] = [
            ("area", rect(settings.area, "the whole sensor")),
            ("rotation", String(settings.rotation)),
            ("left-handed", settings.leftHanded ? "true" : "false"),
            ("output", rect(settings.output, "sensor millimetres")),
            ("virtual-tablet", settings.virtualTablet ? "true" : "false"),
        ]
        return values.map { Setting(key: $0.0, value: $0.1, origin: origins[$0.0] ?? "default") }
    }

    /// The `[tool …]` keys and the ink for one tool: its serial's section over its type's, key by
    /// key (`PenFeel.overlaid`), and its serial's ink over its type's.
    static func tool(_ tool: ToolIdentity, config: DaemonConfig, engine: EngineConfiguration) -> [Setting] {
        let byType = config.feel.byType[tool.type] ?? PenFeel()
        let bySerial = tool.serial != 0 ? config.feel.bySerial[tool.serial] ?? PenFeel() : PenFeel()
        let feel = byType.overlaid(by: bySerial)
        func origin(_ key: String, _ field: (PenFeel) -> Double?) -> String {
            if field(bySerial) != nil { return config.origins.origin("tool \(ToolTarget.serial(tool.serial).originName) \(key)") }
            if field(byType) != nil { return config.origins.origin("tool \(tool.type.rawValue) \(key)") }
            return "default"
        }
        let curve = feel.curve?.spec ?? "linear"
        let curveOrigin = origin("pressure-curve") { $0.curve?.x1 }
        var out = [
            Setting(key: "pressure-curve", value: curve, origin: curveOrigin),
            Setting(key: "pressure-min", value: feel.pressureMin.map(number) ?? "0", origin: origin("pressure-min") { $0.pressureMin }),
            Setting(key: "pressure-max", value: feel.pressureMax.map(number) ?? "1", origin: origin("pressure-max") { $0.pressureMax }),
            Setting(key: "hover-cutoff", value: feel.hoverCutoff.map(number) ?? "none", origin: origin("hover-cutoff") { $0.hoverCutoff }),
            Setting(key: "tip-threshold", value: feel.tipThreshold.map(number) ?? "libinput's (0.05)",
                    origin: origin("tip-threshold") { $0.tipThreshold }),
        ]
        for number in 1...3 {
            let key = "button-\(number)"
            let buttonOrigin = bySerial.buttons[number] != nil ? config.origins.origin("tool \(ToolTarget.serial(tool.serial).originName) \(key)")
                : byType.buttons[number] != nil ? config.origins.origin("tool \(tool.type.rawValue) \(key)") : "default"
            out.append(Setting(key: key, value: feel.buttons[number]?.rawValue ?? "as pressed", origin: buttonOrigin))
        }
        let withInks = config.inks.applied(to: engine)
        let ink = withInks.ink(for: tool)
        let inkOrigin: String
        if tool.serial != 0, let own = config.inks.bySerial[tool.serial], (tool.type == .eraser) == own.isEraser {
            inkOrigin = config.origins.origin(InkChoice.originKey(serial: tool.serial))
        } else if config.inks.byType[tool.type] != nil {
            inkOrigin = config.origins.origin("ink-\(tool.type.rawValue)")
        } else {
            inkOrigin = "default"
        }
        out.append(Setting(key: "ink", value: ink.spec, origin: inkOrigin))
        return out
    }

    /// Daemon-wide settings that change what the pen gives: those a user asks about first,
    /// always, then the preferred actions that are set.
    static func daemon(_ config: DaemonConfig) -> [Setting] {
        func setting(_ key: String, _ value: String) -> Setting { Setting(key: key, value: value, origin: config.origins.origin(key)) }
        var out = ConfigKeys.all.filter(\.inStatus).map { setting($0.name, $0.shown(config)) }
        out.append(setting("action-double-press-ms", String(config.actions.doublePressMicroseconds / 1_000)))
        for (trigger, action) in config.actions.actions.sorted(by: { $0.key.name < $1.key.name }) {
            out.append(setting("action-\(trigger.name)", action))
        }
        for (trigger, action) in config.actions.motions.sorted(by: { $0.key.name < $1.key.name }) {
            out.append(setting("action-\(trigger.name)", action))
        }
        return out
    }

    /// A number as a config file would say it: no trailing ".0".
    static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }
}
