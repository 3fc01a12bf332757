/// linux/input-event-codes.h names of the buttons tablet tools report, as libinput's tools print them.
enum EvdevButtonName {
    static func name(_ code: UInt32) -> String {
        switch code {
        case 0x110: "BTN_LEFT"
        case 0x111: "BTN_RIGHT"
        case 0x112: "BTN_MIDDLE"
        case 0x113: "BTN_SIDE"
        case 0x114: "BTN_EXTRA"
        case 0x115: "BTN_FORWARD"
        case 0x116: "BTN_BACK"
        case 0x117: "BTN_TASK"
        case 0x14b: "BTN_STYLUS"
        case 0x14c: "BTN_STYLUS2"
        case 0x149: "BTN_STYLUS3"
        default: "???"
        }
    }
}
