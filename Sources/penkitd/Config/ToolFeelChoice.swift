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
            let n = try ConfigValues.numbers(key, value)
            guard n.count == 4, n.allSatisfy({ (0...1).contains($0) }) else {
                throw ConfigValueError("pressure-curve must be X1, Y1, X2, Y2, each from 0 to 1 (the control points of the Bézier from 0,0 to 1,1)")
            }
            feel.curve = PressureCurve(x1: n[0], y1: n[1], x2: n[2], y2: n[3])
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
