import CLibinput
import PenInput
import PenKit

extension TabletEvent {
    /// Reads every getter of a libinput tablet-tool event at full precision.
    /// Returns nil for tool types penkit has no name for (the totem).
    init?(libinput event: OpaquePointer, type: libinput_event_type) {
        let kind: Kind
        switch type {
        case LIBINPUT_EVENT_TABLET_TOOL_PROXIMITY: kind = .proximity
        case LIBINPUT_EVENT_TABLET_TOOL_TIP: kind = .tip
        case LIBINPUT_EVENT_TABLET_TOOL_AXIS: kind = .axis
        case LIBINPUT_EVENT_TABLET_TOOL_BUTTON: kind = .button
        default: return nil
        }
        guard let libinputTool = libinput_event_tablet_tool_get_tool(event),
              let toolType = ToolType(libinput: libinput_tablet_tool_get_type(libinputTool)) else { return nil }
        let tool = ToolIdentity(type: toolType,
                                serial: libinput_tablet_tool_get_serial(libinputTool),
                                id: libinput_tablet_tool_get_tool_id(libinputTool))
        let tipDown = libinput_event_tablet_tool_get_tip_state(event) == LIBINPUT_TABLET_TOOL_TIP_DOWN

        var state: State?
        var button: UInt32?
        switch kind {
        case .proximity:
            state = libinput_event_tablet_tool_get_proximity_state(event) == LIBINPUT_TABLET_TOOL_PROXIMITY_STATE_IN
                ? .proximityIn : .proximityOut
        case .tip:
            state = tipDown ? .down : .up
        case .button:
            button = libinput_event_tablet_tool_get_button(event)
            state = libinput_event_tablet_tool_get_button_state(event) == LIBINPUT_BUTTON_STATE_PRESSED
                ? .pressed : .released
        case .axis:
            state = nil
        }

        var axes = TabletAxes()
        axes.x = libinput_event_tablet_tool_get_x(event)
        axes.y = libinput_event_tablet_tool_get_y(event)
        axes.pressure = libinput_event_tablet_tool_get_pressure(event)
        axes.distance = libinput_event_tablet_tool_get_distance(event)
        axes.tiltX = libinput_event_tablet_tool_get_tilt_x(event)
        axes.tiltY = libinput_event_tablet_tool_get_tilt_y(event)
        axes.rotation = libinput_event_tablet_tool_get_rotation(event)
        axes.slider = libinput_event_tablet_tool_get_slider_position(event)
        axes.wheel = libinput_event_tablet_tool_get_wheel_delta(event)
        axes.wheelDiscrete = libinput_event_tablet_tool_get_wheel_delta_discrete(event)

        self.init(kind: kind,
                  time: libinput_event_tablet_tool_get_time_usec(event),
                  tool: tool,
                  state: state,
                  tipDown: tipDown,
                  axes: axes,
                  toolAxes: TabletAxisSet(toolAxesOf: libinputTool),
                  changedAxes: TabletAxisSet(changedIn: event),
                  button: button)
    }
}

extension ToolType {
    init?(libinput type: libinput_tablet_tool_type) {
        switch type {
        case LIBINPUT_TABLET_TOOL_TYPE_PEN: self = .pen
        case LIBINPUT_TABLET_TOOL_TYPE_ERASER: self = .eraser
        case LIBINPUT_TABLET_TOOL_TYPE_BRUSH: self = .brush
        case LIBINPUT_TABLET_TOOL_TYPE_PENCIL: self = .pencil
        case LIBINPUT_TABLET_TOOL_TYPE_AIRBRUSH: self = .airbrush
        case LIBINPUT_TABLET_TOOL_TYPE_MOUSE: self = .mouse
        case LIBINPUT_TABLET_TOOL_TYPE_LENS: self = .lens
        default: return nil
        }
    }
}

extension TabletAxisSet {
    /// libinput_tablet_tool_has_*: the axes the tool has.
    init(toolAxesOf tool: OpaquePointer) {
        self = []
        if libinput_tablet_tool_has_pressure(tool) != 0 { insert(.pressure) }
        if libinput_tablet_tool_has_distance(tool) != 0 { insert(.distance) }
        if libinput_tablet_tool_has_tilt(tool) != 0 { formUnion([.tiltX, .tiltY]) }
        if libinput_tablet_tool_has_rotation(tool) != 0 { insert(.rotation) }
        if libinput_tablet_tool_has_slider(tool) != 0 { insert(.slider) }
        if libinput_tablet_tool_has_wheel(tool) != 0 { insert(.wheel) }
        if libinput_tablet_tool_has_size(tool) != 0 { insert(.size) }
    }

    /// libinput_event_tablet_tool_*_has_changed: the axes this event changed.
    init(changedIn event: OpaquePointer) {
        self = []
        if libinput_event_tablet_tool_x_has_changed(event) != 0 { insert(.x) }
        if libinput_event_tablet_tool_y_has_changed(event) != 0 { insert(.y) }
        if libinput_event_tablet_tool_pressure_has_changed(event) != 0 { insert(.pressure) }
        if libinput_event_tablet_tool_distance_has_changed(event) != 0 { insert(.distance) }
        if libinput_event_tablet_tool_tilt_x_has_changed(event) != 0 { insert(.tiltX) }
        if libinput_event_tablet_tool_tilt_y_has_changed(event) != 0 { insert(.tiltY) }
        if libinput_event_tablet_tool_rotation_has_changed(event) != 0 { insert(.rotation) }
        if libinput_event_tablet_tool_slider_has_changed(event) != 0 { insert(.slider) }
        if libinput_event_tablet_tool_wheel_has_changed(event) != 0 { insert(.wheel) }
        if libinput_event_tablet_tool_size_major_has_changed(event) != 0
            || libinput_event_tablet_tool_size_minor_has_changed(event) != 0 { insert(.size) }
    }
}
