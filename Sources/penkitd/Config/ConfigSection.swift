import PenKit

/// Where a config line's key belongs: the file's top (daemon-wide keys), a `[device MATCH]`
/// section (settings for the tablets MATCH picks) or a `[tool TOOL]` / `[tool serial SERIAL]`
/// section (how one tool type or one physical tool feels).
enum ConfigSection: Equatable {
    case top
    case device(DeviceMatch)
    case tool(ToolTarget)

    /// Reads `[…]`; nil when the line is not a section header.
    static func header(_ line: String) throws(ConfigValueError) -> ConfigSection? {
        guard line.hasPrefix("[") else { return nil }
        guard line.hasSuffix("]") else { throw ConfigValueError("a section header ends with ]") }
        let inner = line.dropFirst().dropLast().trimmingWhitespace()
        let kind = inner.prefix { $0 != " " && $0 != "\t" }
        let rest = inner.dropFirst(kind.count).trimmingWhitespace()
        switch kind {
        case "device": return .device(try DeviceMatch(rest))
        case "tool": return .tool(try ToolTarget(rest))
        default: throw ConfigValueError("unknown section [\(inner)] (known: [device MATCH], [tool TOOL], [tool serial SERIAL])")
        }
    }
}

/// Which tool a `[tool …]` section is about.
enum ToolTarget: Hashable {
    case type(ToolType)
    case serial(UInt64)

    init(_ text: String) throws(ConfigValueError) {
        if text.hasPrefix("serial") {
            let number = text.dropFirst(6).trimmingWhitespace()
            guard let serial = ToolTarget.serial(number), serial != 0 else {
                throw ConfigValueError("[tool serial SERIAL]: the serial must be a nonzero number, like 0x1234")
            }
            self = .serial(serial)
        } else if let type = ToolType(rawValue: text) {
            self = .type(type)
        } else {
            throw ConfigValueError("unknown tool in [tool \(text)] (known: \(ToolType.allCases.map(\.rawValue).joined(separator: ", ")), serial SERIAL)")
        }
    }

    /// How `ConfigOrigins` keys the section's lines: `pen`, `serial 0x1234`.
    var originName: String {
        switch self {
        case .type(let type): type.rawValue
        case .serial(let serial): "serial 0x" + String(serial, radix: 16)
        }
    }

    /// Decimal or 0x hex.
    static func serial(_ text: String) -> UInt64? {
        text.hasPrefix("0x") ? UInt64(text.dropFirst(2), radix: 16) : UInt64(text)
    }
}
