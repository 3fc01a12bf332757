import CLibevdev
import Testing
@testable import PenInput

/// PenInput links no C library, so it carries the kernel's event codes and libevdev's names as
/// Swift (scripts/event-codes/generate.sh). These tests hold them to the C header and to libevdev.
@Suite struct EventCodeTableTests {
    /// Reads the Swift constants by their kernel names, as the decoder does.
    private enum Swift: KernelInputCodes {}

    @Test func everyKernelConstantHasTheHeadersValue() {
        let pairs: [(String, Int32, Int32)] = [
            ("EV_SYN", Swift.EV_SYN, CLibevdev.EV_SYN),
            ("EV_KEY", Swift.EV_KEY, CLibevdev.EV_KEY),
            ("EV_REL", Swift.EV_REL, CLibevdev.EV_REL),
            ("EV_ABS", Swift.EV_ABS, CLibevdev.EV_ABS),
            ("EV_MSC", Swift.EV_MSC, CLibevdev.EV_MSC),
            ("EV_SW", Swift.EV_SW, CLibevdev.EV_SW),
            ("EV_LED", Swift.EV_LED, CLibevdev.EV_LED),
            ("EV_SND", Swift.EV_SND, CLibevdev.EV_SND),
            ("EV_REP", Swift.EV_REP, CLibevdev.EV_REP),
            ("EV_FF", Swift.EV_FF, CLibevdev.EV_FF),
            ("EV_PWR", Swift.EV_PWR, CLibevdev.EV_PWR),
            ("EV_FF_STATUS", Swift.EV_FF_STATUS, CLibevdev.EV_FF_STATUS),
            ("EV_MAX", Swift.EV_MAX, CLibevdev.EV_MAX),
            ("SYN_REPORT", Swift.SYN_REPORT, CLibevdev.SYN_REPORT),
            ("SYN_DROPPED", Swift.SYN_DROPPED, CLibevdev.SYN_DROPPED),
            ("SYN_MAX", Swift.SYN_MAX, CLibevdev.SYN_MAX),
            ("KEY_MAX", Swift.KEY_MAX, CLibevdev.KEY_MAX),
            ("REL_MAX", Swift.REL_MAX, CLibevdev.REL_MAX),
            ("ABS_MAX", Swift.ABS_MAX, CLibevdev.ABS_MAX),
            ("MSC_MAX", Swift.MSC_MAX, CLibevdev.MSC_MAX),
            ("SW_MAX", Swift.SW_MAX, CLibevdev.SW_MAX),
            ("LED_MAX", Swift.LED_MAX, CLibevdev.LED_MAX),
            ("SND_MAX", Swift.SND_MAX, CLibevdev.SND_MAX),
            ("REP_MAX", Swift.REP_MAX, CLibevdev.REP_MAX),
            ("FF_MAX", Swift.FF_MAX, CLibevdev.FF_MAX),
            ("FF_STATUS_MAX", Swift.FF_STATUS_MAX, CLibevdev.FF_STATUS_MAX),
            ("INPUT_PROP_MAX", Swift.INPUT_PROP_MAX, CLibevdev.INPUT_PROP_MAX),
            ("ABS_CNT", Swift.ABS_CNT, CLibevdev.ABS_CNT),
            ("ABS_X", Swift.ABS_X, CLibevdev.ABS_X),
            ("ABS_Y", Swift.ABS_Y, CLibevdev.ABS_Y),
            ("ABS_Z", Swift.ABS_Z, CLibevdev.ABS_Z),
            ("ABS_WHEEL", Swift.ABS_WHEEL, CLibevdev.ABS_WHEEL),
            ("ABS_PRESSURE", Swift.ABS_PRESSURE, CLibevdev.ABS_PRESSURE),
            ("ABS_DISTANCE", Swift.ABS_DISTANCE, CLibevdev.ABS_DISTANCE),
            ("ABS_TILT_X", Swift.ABS_TILT_X, CLibevdev.ABS_TILT_X),
            ("ABS_TILT_Y", Swift.ABS_TILT_Y, CLibevdev.ABS_TILT_Y),
            ("ABS_MISC", Swift.ABS_MISC, CLibevdev.ABS_MISC),
            ("ABS_MT_SLOT", Swift.ABS_MT_SLOT, CLibevdev.ABS_MT_SLOT),
            ("ABS_MT_TOOL_TYPE", Swift.ABS_MT_TOOL_TYPE, CLibevdev.ABS_MT_TOOL_TYPE),
            ("ABS_MT_POSITION_X", Swift.ABS_MT_POSITION_X, CLibevdev.ABS_MT_POSITION_X),
            ("ABS_MT_POSITION_Y", Swift.ABS_MT_POSITION_Y, CLibevdev.ABS_MT_POSITION_Y),
            ("ABS_MT_TOUCH_MAJOR", Swift.ABS_MT_TOUCH_MAJOR, CLibevdev.ABS_MT_TOUCH_MAJOR),
            ("REL_X", Swift.REL_X, CLibevdev.REL_X),
            ("REL_Y", Swift.REL_Y, CLibevdev.REL_Y),
            ("REL_WHEEL", Swift.REL_WHEEL, CLibevdev.REL_WHEEL),
            ("REL_HWHEEL", Swift.REL_HWHEEL, CLibevdev.REL_HWHEEL),
            ("MSC_SERIAL", Swift.MSC_SERIAL, CLibevdev.MSC_SERIAL),
            ("MSC_SCAN", Swift.MSC_SCAN, CLibevdev.MSC_SCAN),
            ("MSC_TIMESTAMP", Swift.MSC_TIMESTAMP, CLibevdev.MSC_TIMESTAMP),
            ("BTN_0", Swift.BTN_0, CLibevdev.BTN_0),
            ("BTN_LEFT", Swift.BTN_LEFT, CLibevdev.BTN_LEFT),
            ("BTN_RIGHT", Swift.BTN_RIGHT, CLibevdev.BTN_RIGHT),
            ("BTN_MIDDLE", Swift.BTN_MIDDLE, CLibevdev.BTN_MIDDLE),
            ("BTN_SIDE", Swift.BTN_SIDE, CLibevdev.BTN_SIDE),
            ("BTN_EXTRA", Swift.BTN_EXTRA, CLibevdev.BTN_EXTRA),
            ("BTN_FORWARD", Swift.BTN_FORWARD, CLibevdev.BTN_FORWARD),
            ("BTN_BACK", Swift.BTN_BACK, CLibevdev.BTN_BACK),
            ("BTN_TASK", Swift.BTN_TASK, CLibevdev.BTN_TASK),
            ("BTN_JOYSTICK", Swift.BTN_JOYSTICK, CLibevdev.BTN_JOYSTICK),
            ("BTN_MOUSE", Swift.BTN_MOUSE, CLibevdev.BTN_MOUSE),
            ("BTN_TOOL_PEN", Swift.BTN_TOOL_PEN, CLibevdev.BTN_TOOL_PEN),
            ("BTN_TOOL_RUBBER", Swift.BTN_TOOL_RUBBER, CLibevdev.BTN_TOOL_RUBBER),
            ("BTN_TOOL_BRUSH", Swift.BTN_TOOL_BRUSH, CLibevdev.BTN_TOOL_BRUSH),
            ("BTN_TOOL_PENCIL", Swift.BTN_TOOL_PENCIL, CLibevdev.BTN_TOOL_PENCIL),
            ("BTN_TOOL_AIRBRUSH", Swift.BTN_TOOL_AIRBRUSH, CLibevdev.BTN_TOOL_AIRBRUSH),
            ("BTN_TOOL_FINGER", Swift.BTN_TOOL_FINGER, CLibevdev.BTN_TOOL_FINGER),
            ("BTN_TOOL_MOUSE", Swift.BTN_TOOL_MOUSE, CLibevdev.BTN_TOOL_MOUSE),
            ("BTN_TOOL_LENS", Swift.BTN_TOOL_LENS, CLibevdev.BTN_TOOL_LENS),
            ("BTN_TOUCH", Swift.BTN_TOUCH, CLibevdev.BTN_TOUCH),
            ("BTN_STYLUS", Swift.BTN_STYLUS, CLibevdev.BTN_STYLUS),
            ("BTN_STYLUS2", Swift.BTN_STYLUS2, CLibevdev.BTN_STYLUS2),
            ("KEY_ESC", Swift.KEY_ESC, CLibevdev.KEY_ESC),
            ("INPUT_PROP_DIRECT", Swift.INPUT_PROP_DIRECT, CLibevdev.INPUT_PROP_DIRECT),
            ("INPUT_PROP_POINTING_STICK", Swift.INPUT_PROP_POINTING_STICK, CLibevdev.INPUT_PROP_POINTING_STICK),
            ("INPUT_PROP_ACCELEROMETER", Swift.INPUT_PROP_ACCELEROMETER, CLibevdev.INPUT_PROP_ACCELEROMETER),
            ("BUS_USB", Swift.BUS_USB, CLibevdev.BUS_USB),
            ("BUS_BLUETOOTH", Swift.BUS_BLUETOOTH, CLibevdev.BUS_BLUETOOTH),
            ("BUS_I2C", Swift.BUS_I2C, CLibevdev.BUS_I2C),
            ("BUS_RS232", Swift.BUS_RS232, CLibevdev.BUS_RS232),
            ("BUS_I8042", Swift.BUS_I8042, CLibevdev.BUS_I8042),
            ("BUS_SPI", Swift.BUS_SPI, CLibevdev.BUS_SPI),
            ("BUS_RMI", Swift.BUS_RMI, CLibevdev.BUS_RMI),
        ]
        for (name, swift, header) in pairs { #expect(swift == header, "\(name)") }
    }

    @Test func everyNameInTheTableIsTheCodeLibevdevGives() {
        #expect(EventCodeNames.codes.count > 500)
        for (name, code) in EventCodeNames.codes {
            guard let parsed = EventCodeNames.parse(name) else {
                Issue.record("\(name) does not parse")
                continue
            }
            #expect(libevdev_event_code_from_name(UInt32(parsed.type), name) == Int32(code), "\(name)")
        }
    }

    @Test func everyCodeLibevdevNamesIsInTheTable() {
        for type in [EV_ABS, EV_REL, EV_KEY, EV_MSC] {
            for code in 0...libevdev_event_type_get_max(UInt32(type)) {
                guard let cName = libevdev_event_code_get_name(UInt32(type), UInt32(code)) else { continue }
                let name = String(cString: cName)
                #expect(EventCodeNames.parse(name)?.type == UInt16(type), "\(name)")
                #expect(EventCodeNames.parse(name)?.code == UInt16(code), "\(name)")
            }
        }
    }

    @Test func namesLibevdevDoesNotKnowAreRefused() {
        #expect(EventCodeNames.parse("ABS_NOT_AN_AXIS") == nil)
        #expect(EventCodeNames.parse("BTN_") == nil)
        #expect(EventCodeNames.parse("XYZ_X") == nil)
        #expect(libevdev_event_code_from_name(UInt32(EV_ABS), "ABS_NOT_AN_AXIS") < 0)
    }
}
