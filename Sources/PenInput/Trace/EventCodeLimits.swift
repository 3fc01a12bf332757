/// The kernel's largest valid code per event type (linux/input-event-codes.h), so a reader can
/// reject a code no device can send before it reaches a decoder that indexes tables by code.
package enum EventCodeLimits: KernelInputCodes {
    package static let maxType = UInt16(EV_MAX)
    package static let maxProperty = UInt16(INPUT_PROP_MAX)
    package static let syn = UInt16(EV_SYN)
    package static let abs = UInt16(EV_ABS)
    package static let maxAbs = UInt16(ABS_MAX)

    /// The largest code of `type`, or nil for a type that has no codes (EV_PWR) or does not exist.
    static func maxCode(type: UInt16) -> UInt16? {
        switch Int32(type) {
        case EV_SYN: UInt16(SYN_MAX)
        case EV_KEY: UInt16(KEY_MAX)
        case EV_REL: UInt16(REL_MAX)
        case EV_ABS: UInt16(ABS_MAX)
        case EV_MSC: UInt16(MSC_MAX)
        case EV_SW: UInt16(SW_MAX)
        case EV_LED: UInt16(LED_MAX)
        case EV_SND: UInt16(SND_MAX)
        case EV_REP: UInt16(REP_MAX)
        case EV_FF: UInt16(FF_MAX)
        case EV_FF_STATUS: UInt16(FF_STATUS_MAX)
        default: nil
        }
    }

    static func typeName(_ type: UInt16) -> String {
        switch Int32(type) {
        case EV_SYN: "EV_SYN"
        case EV_KEY: "EV_KEY"
        case EV_REL: "EV_REL"
        case EV_ABS: "EV_ABS"
        case EV_MSC: "EV_MSC"
        case EV_SW: "EV_SW"
        case EV_LED: "EV_LED"
        case EV_SND: "EV_SND"
        case EV_REP: "EV_REP"
        case EV_FF: "EV_FF"
        case EV_PWR: "EV_PWR"
        case EV_FF_STATUS: "EV_FF_STATUS"
        default: "type \(hex(type))"
        }
    }

    static func hex(_ value: UInt16) -> String {
        let digits = String(value, radix: 16)
        return "0x" + String(repeating: "0", count: max(0, 2 - digits.count)) + digits
    }
}
