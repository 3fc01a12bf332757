/// The axes a tablet tool can report, as a bit set so that "which axes does the
/// tool have" and "which axes changed in this event" cost no allocation.
public struct TabletAxisSet: OptionSet, Sendable, Hashable, Codable {
    public let rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    public static let x = TabletAxisSet(rawValue: 1 << 0)
    public static let y = TabletAxisSet(rawValue: 1 << 1)
    public static let pressure = TabletAxisSet(rawValue: 1 << 2)
    public static let distance = TabletAxisSet(rawValue: 1 << 3)
    public static let tiltX = TabletAxisSet(rawValue: 1 << 4)
    public static let tiltY = TabletAxisSet(rawValue: 1 << 5)
    public static let rotation = TabletAxisSet(rawValue: 1 << 6)
    public static let slider = TabletAxisSet(rawValue: 1 << 7)
    public static let wheel = TabletAxisSet(rawValue: 1 << 8)
    public static let size = TabletAxisSet(rawValue: 1 << 9)
}

/// Axis values in libinput's units: x/y in mm from the top-left of the sensor,
/// pressure and distance normalized to [0, 1], tilt in degrees, rotation in
/// degrees [0, 360), slider in [-1, 1], wheel in degrees of this event's delta.
public struct TabletAxes: Sendable, Hashable, Codable {
    public var x: Double = 0
    public var y: Double = 0
    public var pressure: Double = 0
    public var distance: Double = 0
    public var tiltX: Double = 0
    public var tiltY: Double = 0
    public var rotation: Double = 0
    public var slider: Double = 0
    public var wheel: Double = 0
    public var wheelDiscrete: Int32 = 0

    public init() {}
}

/// One tablet-tool event, the equivalent of a `libinput_event_tablet_tool`.
///
/// Every event carries the full current axis state, as libinput's getters
/// return it; `changedAxes` says which of them this event changed.
public struct TabletEvent: Sendable, Hashable, Codable {
    public enum Kind: String, Sendable, Hashable, Codable {
        case proximity, tip, axis, button
    }

    public enum State: String, Sendable, Hashable, Codable {
        case proximityIn = "in", proximityOut = "out"
        case down, up
        case pressed, released
    }

    public var kind: Kind
    /// Kernel timestamp in microseconds.
    public var time: UInt64
    public var tool: ToolIdentity
    /// Proximity, tip and button state; nil for axis events.
    public var state: State?
    /// Whether the tip is in contact after this event (libinput_event_tablet_tool_get_tip_state).
    public var tipDown: Bool
    public var axes: TabletAxes
    /// The axes this tool has (libinput_tablet_tool_has_*).
    public var toolAxes: TabletAxisSet
    /// The axes this event changed (libinput_event_tablet_tool_*_has_changed).
    public var changedAxes: TabletAxisSet
    /// The evdev button code, for button events.
    public var button: UInt32?

    public init(kind: Kind, time: UInt64, tool: ToolIdentity, state: State? = nil, tipDown: Bool,
                axes: TabletAxes, toolAxes: TabletAxisSet, changedAxes: TabletAxisSet = [], button: UInt32? = nil) {
        self.kind = kind
        self.time = time
        self.tool = tool
        self.state = state
        self.tipDown = tipDown
        self.axes = axes
        self.toolAxes = toolAxes
        self.changedAxes = changedAxes
        self.button = button
    }
}
