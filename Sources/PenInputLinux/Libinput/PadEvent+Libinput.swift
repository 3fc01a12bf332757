import CLibinput
import PenKit

extension PadEvent {
    /// A tablet-pad event of libinput 1.22: buttons, rings and strips. (Dials and keys need a
    /// newer libinput, or are keys, not pad controls: nil for them.)
    init?(libinput event: OpaquePointer, type: libinput_event_type) {
        let time = libinput_event_tablet_pad_get_time_usec(event)
        var group: UInt32 = 0
        if let modeGroup = libinput_event_tablet_pad_get_mode_group(event) {
            group = libinput_tablet_pad_mode_group_get_index(modeGroup)
        }
        let mode = libinput_event_tablet_pad_get_mode(event)
        switch type {
        case LIBINPUT_EVENT_TABLET_PAD_BUTTON:
            self.init(kind: .button, time: time, number: libinput_event_tablet_pad_get_button_number(event),
                      pressed: libinput_event_tablet_pad_get_button_state(event) == LIBINPUT_BUTTON_STATE_PRESSED,
                      modeGroup: group, mode: mode)
        case LIBINPUT_EVENT_TABLET_PAD_RING:
            self.init(kind: .ring, time: time, number: libinput_event_tablet_pad_get_ring_number(event),
                      position: libinput_event_tablet_pad_get_ring_position(event),
                      fromFinger: libinput_event_tablet_pad_get_ring_source(event) == LIBINPUT_TABLET_PAD_RING_SOURCE_FINGER,
                      modeGroup: group, mode: mode)
        case LIBINPUT_EVENT_TABLET_PAD_STRIP:
            self.init(kind: .strip, time: time, number: libinput_event_tablet_pad_get_strip_number(event),
                      position: libinput_event_tablet_pad_get_strip_position(event),
                      fromFinger: libinput_event_tablet_pad_get_strip_source(event) == LIBINPUT_TABLET_PAD_STRIP_SOURCE_FINGER,
                      modeGroup: group, mode: mode)
        default:
            return nil
        }
    }
}

extension PadEvent {
    /// libinput's event type number of this event.
    package var libinputEventType: UInt32 {
        switch kind {
        case .button: LIBINPUT_EVENT_TABLET_PAD_BUTTON.rawValue
        case .ring: LIBINPUT_EVENT_TABLET_PAD_RING.rawValue
        case .strip: LIBINPUT_EVENT_TABLET_PAD_STRIP.rawValue
        }
    }
}
