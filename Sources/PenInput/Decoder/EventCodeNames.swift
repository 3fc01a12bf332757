/// Event type and code names as quirks files write them (`ABS_TILT_X`, `EV_REL`, `BTN_STYLUS`).
enum EventCodeNames: KernelInputCodes {
    /// (type, code) for a name; code nil for a bare `EV_*` type.
    static func parse(_ name: String) -> (type: UInt16, code: UInt16?)? {
        if let type = types[name] { return (type, nil) }
        let type: UInt16
        if name.hasPrefix("ABS_") { type = Code.evAbs }
        else if name.hasPrefix("REL_") { type = Code.evRel }
        else if name.hasPrefix("BTN_") || name.hasPrefix("KEY_") { type = Code.evKey }
        else if name.hasPrefix("MSC_") { type = Code.evMsc }
        else { return nil }
        // The names libevdev resolves (EventCodeTable.swift), without linking libevdev.
        guard let code = codes[name] else { return nil }
        return (type, code)
    }

    static let types: [String: UInt16] = [
        "EV_SYN": Code.evSyn, "EV_KEY": Code.evKey, "EV_REL": Code.evRel, "EV_ABS": Code.evAbs,
        "EV_MSC": Code.evMsc, "EV_SW": UInt16(EV_SW), "EV_LED": UInt16(EV_LED),
        "EV_SND": 0x12, "EV_REP": 0x14, "EV_FF": 0x15, "EV_PWR": 0x16, "EV_FF_STATUS": 0x17,
    ]
}
