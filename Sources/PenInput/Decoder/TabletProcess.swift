import PenKit

/// tablet_process: one event into the frame being assembled.
extension TabletDecoder {
    mutating func process(type: UInt16, code: UInt16, value: Int32, time: UInt64, into out: inout [TabletEvent]) {
        switch type {
        case Code.evAbs: processAbsolute(code, value)
        case Code.evRel: processRelative(code, value)
        case Code.evKey: processKey(code, value)
        case Code.evMsc:
            if code == Code.mscSerial && value != -1 { currentSerial = UInt32(bitPattern: value) }
        case Code.evSyn:
            flush(time: time, into: &out)
            resetFrameState()
            lastEventTime = time
        default: break
        }
    }

    private mutating func processAbsolute(_ code: UInt16, _ value: Int32) {
        let axis: TabletAxisSet
        switch code {
        case Code.absX: axis = .x
        case Code.absY: axis = .y
        case Code.absZ: axis = .rotation
        case Code.absPressure: axis = .pressure
        case Code.absTiltX: axis = .tiltX
        case Code.absTiltY: axis = .tiltY
        case Code.absDistance: axis = .distance
        case Code.absWheel: axis = .slider
        case Code.absMisc:
            currentId = UInt32(bitPattern: value)  // the tool id libwacom knows the tool by
            return
        default: return
        }
        let i = Int(code)
        // tablet_filter_axis_fuzz: compared with the last value that passed
        let previous = currentValue[i]
        var fuzz = device.abs(code)?.fuzz ?? 0
        if code == Code.absDistance { fuzz = max(2, fuzz) }  // as xf86-input-wacom does
        if (Int64(previous) - Int64(value)).magnitude <= UInt64(max(0, Int64(fuzz))) { return }
        currentValue[i] = value
        changed.insert(axis)
        status.insert(.axesUpdated)
    }

    private mutating func processRelative(_ code: UInt16, _ value: Int32) {
        guard code == Code.relWheel else { return }
        changed.insert(.wheel)
        axes.wheelDiscrete = 0 &- value
        status.insert(.axesUpdated)
    }

    private mutating func processKey(_ code: UInt16, _ value: Int32) {
        if value == 2 { return }  // kernel key repeat
        if let type = ToolType(toolCode: code) {
            status.insert(.toolUpdated)
            if value != 0 { toolState |= type.stateBit } else { toolState &= ~type.stateBit }
            return
        }
        if code == Code.btnToolFinger { return }
        if code == Code.btnTouch {
            // BTN_TOUCH decides contact only on tablets without a pressure axis
            if !device.axisCaps.contains(.pressure) {
                status.insert(value != 0 ? .toolEnteringContact : .toolLeavingContact)
            }
            return
        }
        // Other keys (a pad's BTN_0...) are "Unhandled button" in libinput 1.22.
        guard let bit = ToolButtons.bit(for: code) else { return }
        if value != 0 {
            buttons |= bit
            status.insert(.buttonsPressed)
        } else {
            buttons &= ~bit
            status.insert(.buttonsReleased)
        }
    }

    /// tablet_reset_state, after every frame.
    private mutating func resetFrameState() {
        prevButtons = buttons
        status.remove(.toolUpdated)
        if buttons == 0 { status.remove(.buttonsDown) } else { status.insert(.buttonsDown) }
    }
}
