import PenKit

/// tablet_flush and the tool bookkeeping it needs.
extension TabletDecoder {
    mutating func flush(time: UInt64, into out: inout [TabletEvent]) {
        var again = true
        while again {
            again = updateToolState(time: time)
            guard let type = currentType else { return }
            let t = toolIndex(type: type, id: currentId, serial: currentSerial)
            if type == .mouse || type == .lens { updateCursorProximity(tool: t) }
            if status.contains(.toolOutOfProximity) || status.contains(.toolOutOfRange) { return }

            if status.contains(.toolLeavingProximity) {
                buttons = 0  // release all buttons
                status.insert(.buttonsReleased)
                if status.contains(.toolInContact) { status.insert(.toolLeavingContact) }
            } else if status.contains(.axesUpdated) || status.contains(.toolEnteringProximity) {
                if status.contains(.toolEnteringProximity) { changed = tools[t].axes }
                detectPressureOffset(tool: t)
                detectToolContact(tool: t)
                sanitizePressureAndDistance(tool: t)
                if (type == .mouse || type == .lens) && !changed.isDisjoint(with: [.tiltX, .tiltY]) {
                    changed.insert(.rotation)
                }
            }
            sendEvents(tool: t, time: time, into: &out)
        }
    }

    /// tablet_update_tool_state; true when a doubled-up tool bit needs a second pass.
    private mutating func updateToolState(time: UInt64) -> Bool {
        if proximityOutForced && status.contains(.toolUpdated) && toolState == 0 {
            // a real proximity-out after a forced one: the device does send them
            needToForceProximityOut = false
            proximityOutForced = false
        }
        if status.contains(.axesUpdated) {
            if proximityOutForced {
                if !status.contains(.toolUpdated) && toolState == 0 { toolState = ToolType.pen.stateBit }
                proximityOutForced = false
            } else if toolState == 0 && currentType == nil {
                toolState = ToolType.pen.stateBit
                proximityOutForced = false
            }
        }
        if toolState == prevToolState { return false }

        var doubledUpNewBit: UInt32 = 0
        if toolState & (toolState &- 1) != 0 {
            // Two tools at once (firmware bugs): a new pen is ignored, any other new tool
            // (the eraser) replaces the old one through a proximity-out first.
            doubledUpNewBit = toolState ^ prevToolState
            if doubledUpNewBit == ToolType.pen.stateBit {
                toolState &= ~ToolType.pen.stateBit
                return false
            }
            toolState = 0
        }
        let changedBits = toolState ^ prevToolState
        let type = ToolType.byLibinputNumber[changedBits.trailingZeroBitCount - 1]
        let entering = toolState & type.stateBit != 0
        if entering {
            currentType = type
            status.insert(.toolEnteringProximity)
            status.remove(.toolOutOfProximity)
        } else if !status.contains(.toolOutOfProximity) {
            status.insert(.toolLeavingProximity)
        }
        if type == .pen {
            if entering {
                setProximityTimer(time)
            } else {
                if !proximityOutInProgress { needToForceProximityOut = false }
                proximityOutExpiry = nil
            }
        }
        prevToolState = toolState
        if doubledUpNewBit != 0 {
            toolState = doubledUpNewBit
            return true
        }
        return false
    }

    /// tablet_get_tool: tools with a serial are unique by (type, serial); a tool without one,
    /// or whose serial came late, is the device's one tool of that type.
    private mutating func toolIndex(type: ToolType, id: UInt32, serial: UInt32) -> Int {
        if serial != 0, let i = tools.firstIndex(where: { $0.serial != 0 && $0.type == type && $0.serial == serial }) {
            return i
        }
        if let i = tools.firstIndex(where: { $0.serial == 0 && $0.type == type }) { return i }
        tools.append(TabletTool(type: type, serial: serial, id: id, device: device))
        return tools.count - 1
    }

    /// tablet_update_proximity_state: a mouse or lens is in proximity only closer than the
    /// distance threshold.
    private mutating func updateCursorProximity(tool t: Int) {
        guard device.delivers(Code.evAbs, Code.absDistance) else { return }
        let distance = absValue[Int(Code.absDistance)]
        if distance == 0 { return }
        let outside = status.contains(.toolOutOfRange) || status.contains(.toolOutOfProximity)
        if distance < device.cursorProximityThreshold {
            if outside {
                status.remove([.toolOutOfRange, .toolOutOfProximity])
                status.insert(.toolEnteringProximity)
                changed = tools[t].axes
                status.insert(.buttonsPressed)
                buttons |= prevButtons  // all held buttons look newly pressed
                prevButtons = 0
            }
            return
        }
        if outside { return }
        if status.contains(.toolEnteringProximity) {
            status.insert(.toolOutOfRange)
            status.remove(.toolEnteringProximity)
            return
        }
        status.insert(.toolLeavingProximity)
    }

    /// detect_pressure_offset: a pen that reports pressure while hovering high has worn
    /// springs; that pressure becomes its zero.
    private mutating func detectPressureOffset(tool t: Int) {
        guard changed.contains(.pressure), let p = device.abs(Code.absPressure),
              let d = device.abs(Code.absDistance) else { return }
        let offset = absValue[Int(Code.absPressure)]
        if tools[t].hasPressureOffset {
            if offset < tools[t].pressureOffset { setPressureOffset(offset, tool: t) }
            return
        }
        if offset <= p.minimum { return }
        if !status.contains(.toolEnteringProximity) { return }
        if absValue[Int(Code.absDistance)] < rangePercentage(d, 50) { return }
        if offset > rangePercentage(p, 20) { return }  // libinput logs and ignores it
        setPressureOffset(offset, tool: t)
    }

    private mutating func setPressureOffset(_ offset: Int32, tool t: Int) {
        let gap = tools[t].upperThreshold &- tools[t].lowerThreshold
        tools[t].pressureOffset = offset
        tools[t].hasPressureOffset = true
        tools[t].lowerThreshold = offset
        tools[t].upperThreshold = offset &+ gap
    }

    /// detect_tool_contact: with pressure, contact starts at the upper threshold and ends at
    /// the lower one, whatever BTN_TOUCH says.
    private mutating func detectToolContact(tool t: Int) {
        guard tools[t].axes.contains(.pressure), device.abs(Code.absPressure) != nil else { return }
        let pressure = absValue[Int(Code.absPressure)]
        if pressure <= tools[t].lowerThreshold && status.contains(.toolInContact) {
            status.insert(.toolLeavingContact)
        } else if pressure >= tools[t].upperThreshold && !status.contains(.toolInContact) {
            status.insert(.toolEnteringContact)
        }
    }

    /// sanitize_pressure_distance: pressure and distance are never both non-zero.
    private mutating func sanitizePressureAndDistance(tool t: Int) {
        guard let p = device.abs(Code.absPressure), let d = device.abs(Code.absDistance) else { return }
        let pressureChanged = changed.contains(.pressure), distanceChanged = changed.contains(.distance)
        if !pressureChanged && !distanceChanged { return }
        let pressure = absValue[Int(Code.absPressure)], distance = absValue[Int(Code.absDistance)]
        let inContact = pressure > tools[t].lowerThreshold
        if distance > d.minimum && pressure > p.minimum {
            if inContact {
                changed.remove(.distance)
                axes.distance = 0
            } else {
                changed.remove(.pressure)
                axes.pressure = 0
            }
        } else if pressureChanged && !inContact {
            // the last pressure sent must be 0
            if axes.pressure == 0 { changed.remove(.pressure) } else { axes.pressure = 0 }
        }
    }
}
