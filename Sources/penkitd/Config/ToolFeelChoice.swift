import PenEngine
import PenKit

/// How each tool feels, from `[tool TOOL]` and `[tool serial SERIAL]` sections: a pen's serial
/// section laid over its type's, key by key (PenFeel.overlaid).
struct ToolFeelChoice: Sendable, Equatable {
    var byType: [ToolType: PenFeel] = [:]
    var bySerial: [UInt64: PenFeel] = [:]

    static let keys = ["pressure-curve", "pressure-min", "pressure-max", "hover-cutoff", "tip-threshold", "button-1", "button-2", "button-3"]

    mutating func set(key: String, value: String, for target: ToolTarget) throws(ConfigValueError) {
        var feel: PenFeel
        switch target {
        case .type(let type): feel = byType[type] ?? PenFeel()
        case .serial(let serial): feel = bySerial[serial] ?? PenFeel()
        }
        switch key {
        case "pressure-curve":
            do { feel.curve = try PressureCurve(spec: value) } catch { throw ConfigValueError(error.message) }
        case "pressure-min": feel.pressureMin = try ConfigValues.fraction(key, value)
        case "pressure-max": feel.pressureMax = try ConfigValues.fraction(key, value)
        case "hover-cutoff": feel.hoverCutoff = try ConfigValues.fraction(key, value)
        case "tip-threshold":
            let threshold = try ConfigValues.fraction(key, value)
            guard threshold > 0 else { throw ConfigValueError("tip-threshold must be above 0 (a pen at rest on nothing would touch)") }
            feel.tipThreshold = threshold
        case "button-1", "button-2", "button-3":
            guard let action = BarrelButtonAction(rawValue: value.lowercased()) else {
                throw ConfigValueError("\(key) must be one of \(BarrelButtonAction.allCases.map(\.rawValue).joined(separator: ", ")), not \"\(value)\"")
            }
            feel.buttons[Int(key.suffix(1))!] = action
        default:
            throw ConfigValueError("unknown key \"\(key)\" in a [tool] section (known: \(Self.keys.joined(separator: ", ")))")
        }
        if let low = feel.pressureMin, let high = feel.pressureMax, low >= high {
            throw ConfigValueError("pressure-min must be below pressure-max")
        }
        switch target {
        case .type(let type): byType[type] = feel
        case .serial(let serial): bySerial[serial] = feel
        }
    }
}
