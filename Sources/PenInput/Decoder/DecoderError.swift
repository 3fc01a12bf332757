/// What udev and libinput would make of a device that is not decoded as a tablet.
package enum DeviceKind: String, Sendable, Hashable {
    case tabletPad = "tablet pad"
    case touchpad, touchscreen, keyboard, pointer, joystick, accelerometer
    case unknown = "device not tagged as an input device"
}

/// Why a device yields no tablet-tool events, in the words libinput uses.
package enum DecoderError: Error, Sendable, Equatable, CustomStringConvertible {
    /// udev would not tag the device as a pen tablet, so libinput does not use its tablet code.
    case notATablet(DeviceKind)
    /// libinput 1.22 ignores a tablet lacking these ("xy", "pen", "btn-stylus", "resolution").
    case missingTabletCapabilities([String])
    /// libinput rejects the device before classifying it (evdev_reject_device).
    case rejected(String)

    package var description: String {
        switch self {
        case .notATablet(.tabletPad):
            return "libinput handles this device as a tablet pad: it yields pad events, no tablet-tool events"
        case .notATablet(let kind):
            return "not a pen tablet (\(kind.rawValue)): libinput yields no tablet-tool events for it"
        case .missingTabletCapabilities(let missing):
            let hint = missing.contains("resolution") ? " (pass --resolution N to assume N units/mm)" : ""
            return "missing tablet capabilities: \(missing.joined(separator: " ")). "
                + "libinput 1.22 ignores this device\(hint)"
        case .rejected(let reason):
            return "libinput rejects this device: \(reason)"
        }
    }
}
