/// linux/input.h codes as UInt16, so the decoder compares without casts.
enum Code: KernelInputCodes {
    static let evSyn = UInt16(EV_SYN), evKey = UInt16(EV_KEY), evRel = UInt16(EV_REL)
    static let evAbs = UInt16(EV_ABS), evMsc = UInt16(EV_MSC)

    static let synReport = UInt16(SYN_REPORT), synDropped = UInt16(SYN_DROPPED)

    static let absX = UInt16(ABS_X), absY = UInt16(ABS_Y), absZ = UInt16(ABS_Z)
    static let absWheel = UInt16(ABS_WHEEL), absPressure = UInt16(ABS_PRESSURE)
    static let absDistance = UInt16(ABS_DISTANCE), absTiltX = UInt16(ABS_TILT_X)
    static let absTiltY = UInt16(ABS_TILT_Y), absMisc = UInt16(ABS_MISC)
    static let absMtSlot = UInt16(ABS_MT_SLOT), absMtToolType = UInt16(ABS_MT_TOOL_TYPE)
    static let absMtPositionX = UInt16(ABS_MT_POSITION_X), absMtPositionY = UInt16(ABS_MT_POSITION_Y)
    static let absMtTouchMajor = UInt16(ABS_MT_TOUCH_MAJOR)
    static let absCount = Int(ABS_CNT)

    static let relX = UInt16(REL_X), relY = UInt16(REL_Y), relWheel = UInt16(REL_WHEEL)
    static let relHWheel = UInt16(REL_HWHEEL)

    static let mscSerial = UInt16(MSC_SERIAL), mscScan = UInt16(MSC_SCAN)
    static let mscTimestamp = UInt16(MSC_TIMESTAMP)

    static let btn0 = UInt16(BTN_0), btnLeft = UInt16(BTN_LEFT), btnRight = UInt16(BTN_RIGHT)
    static let btnMiddle = UInt16(BTN_MIDDLE), btnSide = UInt16(BTN_SIDE), btnExtra = UInt16(BTN_EXTRA)
    static let btnForward = UInt16(BTN_FORWARD), btnBack = UInt16(BTN_BACK), btnTask = UInt16(BTN_TASK)
    static let btnJoystick = UInt16(BTN_JOYSTICK), btnMouse = UInt16(BTN_MOUSE)
    static let btnToolPen = UInt16(BTN_TOOL_PEN), btnToolRubber = UInt16(BTN_TOOL_RUBBER)
    static let btnToolBrush = UInt16(BTN_TOOL_BRUSH), btnToolPencil = UInt16(BTN_TOOL_PENCIL)
    static let btnToolAirbrush = UInt16(BTN_TOOL_AIRBRUSH), btnToolFinger = UInt16(BTN_TOOL_FINGER)
    static let btnToolMouse = UInt16(BTN_TOOL_MOUSE), btnToolLens = UInt16(BTN_TOOL_LENS)
    static let btnTouch = UInt16(BTN_TOUCH), btnStylus = UInt16(BTN_STYLUS), btnStylus2 = UInt16(BTN_STYLUS2)
    static let keyEsc = UInt16(KEY_ESC), keyMax = UInt16(KEY_MAX)

    static let propDirect = UInt16(INPUT_PROP_DIRECT), propPointingStick = UInt16(INPUT_PROP_POINTING_STICK)
    static let propAccelerometer = UInt16(INPUT_PROP_ACCELEROMETER)

    static let busUSB = UInt16(BUS_USB), busBluetooth = UInt16(BUS_BLUETOOTH)
    static let busI2C = UInt16(BUS_I2C), busRS232 = UInt16(BUS_RS232)
    static let busI8042 = UInt16(BUS_I8042), busSPI = UInt16(BUS_SPI), busRMI = UInt16(BUS_RMI)

    static let vendorWacom: UInt16 = 0x056a
}
