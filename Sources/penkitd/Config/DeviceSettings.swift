import PenEngine
import PenKit

/// What one tablet is configured with, from every `[device …]` section that matches it, in
/// file order (a later section's key wins). New per-device keys go into `set(key:value:)`.
struct DeviceSettings: Equatable {
    /// `area = X, Y, WIDTH, HEIGHT`: the part of the sensor used, in mm from its top-left.
    var area: MappingRect?
    /// `rotation = 0|90|180|270`: clockwise degrees.
    var rotation = 0
    /// `left-handed = true`: turned 180° more, as libinput's left-handed option does.
    var leftHanded = false
    /// `output = X, Y, WIDTH, HEIGHT`: where the mapped space lands, in the client's units.
    var output: MappingRect?
    /// `virtual-tablet = false`: with the daemon-wide `virtual-tablet` on, this tablet stays out of
    /// it (not grabbed: the compositor reads it with its own settings). Read when it appears.
    var virtualTablet = true

    static let keys = ["area", "rotation", "left-handed", "output", "virtual-tablet"]

    mutating func set(key: String, value: String) throws(ConfigValueError) {
        switch key {
        case "area":
            let rect = try Self.rect(key, value)
            guard rect.x >= 0, rect.y >= 0 else { throw ConfigValueError("area: X and Y must not be negative") }
            area = rect
        case "rotation":
            guard let degrees = Int(value), [0, 90, 180, 270].contains(degrees) else {
                throw ConfigValueError("rotation must be 0, 90, 180 or 270")
            }
            rotation = degrees
        case "left-handed": leftHanded = try ConfigValues.boolean(key, value)
        case "output": output = try Self.rect(key, value)
        case "virtual-tablet": virtualTablet = try ConfigValues.boolean(key, value)
        default:
            throw ConfigValueError("unknown key \"\(key)\" in a [device] section (known: \(Self.keys.joined(separator: ", ")))")
        }
    }

    /// The mapping for a sensor `width` × `height` mm; nil when positions stay as the sensor gives them.
    func mapping(sensorWidth width: Double, sensorHeight height: Double) -> DeviceMapping? {
        let turn = (rotation + (leftHanded ? 180 : 0)) % 360
        guard area != nil || turn != 0 || output != nil else { return nil }
        return DeviceMapping(area: area ?? MappingRect(x: 0, y: 0, width: width, height: height),
                             rotation: turn, output: output)
    }

    static func rect(_ key: String, _ value: String) throws(ConfigValueError) -> MappingRect {
        let numbers = try ConfigValues.numbers(key, value)
        guard numbers.count == 4 else { throw ConfigValueError("\(key) must be X, Y, WIDTH, HEIGHT") }
        guard numbers[2] > 0, numbers[3] > 0 else { throw ConfigValueError("\(key): WIDTH and HEIGHT must be positive") }
        return MappingRect(x: numbers[0], y: numbers[1], width: numbers[2], height: numbers[3])
    }
}

/// The `[device …]` sections as written: each key checked when the file is read, kept in order,
/// and applied to a tablet when it appears (or the file is reloaded).
struct DeviceSections: Sendable, Equatable {
    struct Section: Sendable, Equatable {
        var match: DeviceMatch
        var entries: [Entry] = []
    }

    struct Entry: Sendable, Equatable {
        var key: String
        var value: String
    }

    var sections: [Section] = []

    mutating func begin(_ match: DeviceMatch) { sections.append(Section(match: match)) }

    /// Adds `key = value` to the last section, after checking it.
    mutating func set(key: String, value: String) throws(ConfigValueError) {
        var scratch = DeviceSettings()
        try scratch.set(key: key, value: value)
        sections[sections.count - 1].entries.append(Entry(key: key, value: value))
    }

    func settings(for device: DeviceInfo) -> DeviceSettings {
        var settings = DeviceSettings()
        for section in sections where section.match.matches(device) {
            // Checked when read, so applying again cannot fail.
            for entry in section.entries { try? settings.set(key: entry.key, value: entry.value) }
        }
        return settings
    }
}
