/// One raw kernel input event, as read from /dev/input/eventN or a recording.
package struct EvdevEvent: Sendable, Hashable {
    /// Kernel timestamp in microseconds.
    package var time: UInt64
    package var type: UInt16
    package var code: UInt16
    package var value: Int32

    package init(time: UInt64, type: UInt16, code: UInt16, value: Int32) {
        self.time = time
        self.type = type
        self.code = code
        self.value = value
    }
}

/// The range and resolution of one absolute axis (struct input_absinfo).
package struct AbsInfo: Sendable, Hashable {
    package var value: Int32
    package var minimum: Int32
    package var maximum: Int32
    package var fuzz: Int32
    package var flat: Int32
    /// Units per mm for x/y, units per radian for rotation and tilt axes; 0 when unknown.
    package var resolution: Int32

    package init(value: Int32 = 0, minimum: Int32, maximum: Int32, fuzz: Int32 = 0, flat: Int32 = 0, resolution: Int32 = 0) {
        self.value = value
        self.minimum = minimum
        self.maximum = maximum
        self.fuzz = fuzz
        self.flat = flat
        self.resolution = resolution
    }
}

/// What a device declares: its identity, event codes, axis ranges and properties.
package struct DeviceDescription: Sendable, Hashable {
    package var name: String
    package var bustype: UInt16
    package var vendor: UInt16
    package var product: UInt16
    package var version: UInt16
    /// INPUT_PROP_* bits.
    package var properties: Set<UInt16>
    /// Supported codes per event type (EV_KEY, EV_ABS, EV_REL, EV_MSC, ...).
    package var codes: [UInt16: Set<UInt16>]
    /// Axis information for every supported EV_ABS code.
    package var absInfo: [UInt16: AbsInfo]

    package init(name: String, bustype: UInt16 = 0, vendor: UInt16 = 0, product: UInt16 = 0, version: UInt16 = 0,
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

    package func has(type: UInt16, code: UInt16) -> Bool {
        codes[type]?.contains(code) ?? false
    }
}

/// A recording: one or more devices, each with its event stream in time order.
package struct Trace: Sendable {
    package struct Device: Sendable {
        package var description: DeviceDescription
        package var events: [EvdevEvent]
        package init(description: DeviceDescription, events: [EvdevEvent]) {
            self.description = description
            self.events = events
        }
    }

    package var devices: [Device]
    package init(devices: [Device]) { self.devices = devices }
}
