import PenKit

/// Decides what udev's input_id builtin (plus libwacom's hwdb naming of pad nodes) would tag a
/// device as, and which of libinput's dispatchers would then take it (evdev_configure_device).
enum DeviceClassifier {
    struct Tags: OptionSet {
        let rawValue: UInt16
        static let tablet = Tags(rawValue: 1 << 0)
        static let tabletPad = Tags(rawValue: 1 << 1)
        static let touchpad = Tags(rawValue: 1 << 2)
        static let touchscreen = Tags(rawValue: 1 << 3)
        static let keyboard = Tags(rawValue: 1 << 4)
        static let pointer = Tags(rawValue: 1 << 5)
        static let joystick = Tags(rawValue: 1 << 6)
        static let accelerometer = Tags(rawValue: 1 << 7)
    }

    static func tags(of d: DeviceDescription) -> Tags {
        let key = { (c: UInt16) in d.has(type: Code.evKey, code: c) }
        let abs = { (c: UInt16) in d.has(type: Code.evAbs, code: c) }
        let rel = { (c: UInt16) in d.has(type: Code.evRel, code: c) }
        var tags: Tags = []

        let hasKeys = !(d.codes[Code.evKey]?.isEmpty ?? true)
        let hasAbsXY = abs(Code.absX) && abs(Code.absY)
        if d.properties.contains(Code.propAccelerometer) || (!hasKeys && hasAbsXY && abs(Code.absZ)) {
            return .accelerometer
        }
        let hasStylus = key(Code.btnStylus), hasPen = key(Code.btnToolPen)
        let fingerButNoPen = key(Code.btnToolFinger) && !hasPen
        let hasMouseButton = (Code.btnMouse..<Code.btnJoystick).contains(where: key)
        let hasRelXY = rel(Code.relX) && rel(Code.relY)
        let hasMT = abs(Code.absMtPositionX) && abs(Code.absMtPositionY)
        let isDirect = d.properties.contains(Code.propDirect)
        let hasTouch = key(Code.btnTouch)
        let hasPadButtons = key(Code.btn0) && hasStylus && !hasPen
        let hasJoystickButtons = (Code.btnJoystick..<Code.btnJoystick + 0x30).contains(where: key)

        var isTablet = false, isTouchpad = false, isTouchscreen = false, isAbsMouse = false
        if hasAbsXY || hasMT {
            if hasStylus || hasPen { isTablet = true }
            else if fingerButNoPen && !isDirect { isTouchpad = true }
            else if hasAbsXY && hasMouseButton { isAbsMouse = true }
            else if hasTouch || isDirect { isTouchscreen = true }
            else if hasJoystickButtons { tags.insert(.joystick) }
        } else if hasJoystickButtons {
            tags.insert(.joystick)
        }
        // libwacom's hwdb tags Wacom's separate pad nodes ("... Pad") as pads.
        let namedPad = d.vendor == Code.vendorWacom && d.name.hasSuffix(" Pad")
        if isTablet { tags.insert(.tablet) }
        if (isTablet && hasPadButtons) || namedPad { tags.formUnion([.tablet, .tabletPad]) }
        if isTouchpad { tags.insert(.touchpad) }
        if isTouchscreen { tags.insert(.touchscreen) }
        if isAbsMouse || (hasRelXY && hasMouseButton) || d.properties.contains(Code.propPointingStick) {
            tags.insert(.pointer)
        }
        if hasKeys, (Code.keyEsc..<Code.btn0).contains(where: key) { tags.insert(.keyboard) }
        return tags
    }

    /// The device kind libinput would treat it as, or nil when its tablet code takes it.
    static func nonTabletKind(of d: DeviceDescription) -> DeviceKind? {
        let t = tags(of: d)
        if t == .accelerometer { return .accelerometer }
        if t.contains(.tabletPad) { return .tabletPad }
        if t.intersection([.tablet, .touchpad, .touchscreen]) == .tablet { return nil }
        if t.contains(.touchpad) { return .touchpad }
        if t.contains(.touchscreen) { return .touchscreen }
        if t.contains(.pointer) { return .pointer }
        if t.contains(.keyboard) { return .keyboard }
        if t.contains(.joystick) { return .joystick }
        return .unknown
    }
}
