/// One raw kernel input event, as read from /dev/input/eventN or a recording.
public struct EvdevEvent: Sendable, Hashable {
    /// Kernel timestamp in microseconds.
    public var time: UInt64
    public var type: UInt16
    public var code: UInt16
    public var value: Int32

    public init(time: UInt64, type: UInt16, code: UInt16, value: Int32) {
        self.time = time
        self.type = type
        self.code = code
        self.value = value
    }
}

/// The range and resolution of one absolute axis (struct input_absinfo).
public struct AbsInfo: Sendable, Hashable {
    public var value: Int32
    public var minimum: Int32
    public var maximum: Int32
    public var fuzz: Int32
    public var flat: Int32
    /// Units per mm for x/y, units per radian for rotation and tilt axes; 0 when unknown.
    public var resolution: Int32

    public init(value: Int32 = 0, minimum: Int32, maximum: Int32, fuzz: Int32 = 0, flat: Int32 = 0, resolution: Int32 = 0) {
        self.value = value
        self.minimum = minimum
        self.maximum = maximum
        self.fuzz = fuzz
        self.flat = flat
        self.resolution = resolution
    }
}

/// What a device declares: its identity, event codes, axis ranges and properties.
public struct DeviceDescription: Sendable, Hashable {
    public var name: String
    public var bustype: UInt16
    public var vendor: UInt16
    public var product: UInt16
    public var version: UInt16
    /// INPUT_PROP_* bits.
    public var properties: Set<UInt16>
    /// Supported codes per event type (EV_KEY, EV_ABS, EV_REL, EV_MSC, ...).
    public var codes: [UInt16: Set<UInt16>]
    /// Axis information for every supported EV_ABS code.
    public var absInfo: [UInt16: AbsInfo]

    public init(name: String, bustype: UInt16 = 0, vendor: UInt16 = 0, product: UInt16 = 0, version: UInt16 = 0,
                properties: Set<UInt16> = [], codes: [UInt16: Set<UInt16>] = [:], absInfo: [UInt16: AbsInfo] = [:]) {
        self.name = name
        self.bustype = bustype
        self.vendor = vendor
        self.product = product
        self.version = version
        self.properties = properties
        self.codes = codes
        self.absInfo = absInfo
    }

    public func has(type: UInt16, code: UInt16) -> Bool {
        codes[type]?.contains(code) ?? false
    }
}

/// A recording: one or more devices, each with its event stream in time order.
public struct Trace: Sendable {
    public struct Device: Sendable {
        public var description: DeviceDescription
        public var events: [EvdevEvent]
        public init(description: DeviceDescription, events: [EvdevEvent]) {
            self.description = description
            self.events = events
        }
    }

    public var devices: [Device]
    public init(devices: [Device]) { self.devices = devices }
}
