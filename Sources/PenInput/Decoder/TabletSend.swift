import PenKit

/// tablet_send_events: the frame's events in libinput's order — proximity in, then tip or
/// axis, then button releases and presses, then proximity out.
extension TabletDecoder {
    mutating func sendEvents(tool t: Int, time: UInt64, into out: inout [TabletEvent]) {
        var frameAxes: RawAxes
        if status.contains(.toolLeavingProximity) {
            // the last axis values are stale when the tool leaves; report the state as it was
            frameAxes = axes
            status.remove(.axesUpdated)
        } else {
            frameAxes = notifiedAxes(tool: t)
        }

        if status.contains(.toolEnteringProximity) {
            emit(.proximity, .proximityIn, tipDown: false, frameAxes, changed, tool: t, time: time, into: &out)
            status.remove([.toolEnteringProximity, .axesUpdated])
            changed = []
        }
        if status.contains(.toolEnteringContact) {
            emit(.tip, .down, tipDown: true, frameAxes, changed, tool: t, time: time, into: &out)
            status.remove([.axesUpdated, .toolEnteringContact])
            status.insert(.toolInContact)
            changed = []
        } else if status.contains(.toolLeavingContact) {
            emit(.tip, .up, tipDown: false, frameAxes, changed, tool: t, time: time, into: &out)
            status.remove([.axesUpdated, .toolLeavingContact, .toolInContact])
            changed = []
        } else if status.contains(.axesUpdated) {
            emit(.axis, nil, tipDown: status.contains(.toolInContact), frameAxes, changed, tool: t, time: time, into: &out)
            status.remove(.axesUpdated)
            changed = []
        }
        status.remove(.toolEnteringContact)
        changed = []

        // button events carry the unsmoothed axis state and no changed axes
        if status.contains(.buttonsReleased) {
            emitButtons(prevButtons & ~buttons, .released, tool: t, time: time, into: &out)
            status.remove(.buttonsReleased)
        }
        if status.contains(.buttonsPressed) {
            emitButtons(buttons & ~prevButtons, .pressed, tool: t, time: time, into: &out)
            status.remove(.buttonsPressed)
        }

        if status.contains(.toolLeavingProximity) {
            emit(.proximity, .proximityOut, tipDown: false, frameAxes, changed, tool: t, time: time, into: &out)
            status.insert(.toolOutOfProximity)
            status.remove(.toolLeavingProximity)
            changed = []
            historyCount = 0
        }
    }

    /// tablet_check_notify_axes: converts the changed axes, then smooths x, y and tilt.
    private mutating func notifiedAxes(tool t: Int) -> RawAxes {
        if !changed.isEmpty { updateAxes(tool: t) }
        var result = axes
        // a contact change often jumps the position: don't average across it
        if status.contains(.toolEnteringContact) || status.contains(.toolLeavingContact) { historyCount = 0 }
        pushHistory(axes)
        smooth(&result)
        // as tablet_tool_process_delta does, a moving smoothed point counts as a changed axis
        if result.x != lastSmoothX { changed.insert(.x) }
        if result.y != lastSmoothY { changed.insert(.y) }
        lastSmoothX = result.x
        lastSmoothY = result.y
        return result
    }

    private mutating func updateAxes(tool t: Int) {
        if changed.contains(.x) || changed.contains(.y), device.delivers(Code.evAbs, Code.absX), device.delivers(Code.evAbs, Code.absY) {
            axes.x = absValue[Int(Code.absX)]
            axes.y = absValue[Int(Code.absY)]
        }
        if changed.contains(.pressure), let p = device.abs(Code.absPressure) {
            axes.pressure = AxisMath.pressure(p, absValue[Int(Code.absPressure)], lowerThreshold: tools[t].lowerThreshold)
        }
        if changed.contains(.distance), let d = device.abs(Code.absDistance) {
            axes.distance = AxisMath.distance(d, absValue[Int(Code.absDistance)])
        }
        if changed.contains(.slider), let s = device.abs(Code.absWheel) {
            axes.slider = AxisMath.slider(s, absValue[Int(Code.absWheel)])
        }
        let tiltChanged = changed.contains(.tiltX) || changed.contains(.tiltY)
        if tiltChanged, let tx = device.abs(Code.absTiltX), let ty = device.abs(Code.absTiltY) {
            axes.tiltX = AxisMath.tilt(tx, absValue[Int(Code.absTiltX)])
            axes.tiltY = AxisMath.tilt(ty, absValue[Int(Code.absTiltY)])
        }
        if changed.contains(.wheel) {
            axes.wheel = Double(axes.wheelDiscrete) * AxisMath.wheelClickAngle
        } else {
            axes.wheel = 0
            axes.wheelDiscrete = 0
        }
        // rotation after tilt: a mouse or lens turns its tilt into rotation and has no tilt
        if currentType == .mouse || currentType == .lens {
            if tiltChanged {
                axes.rotation = AxisMath.mouseRotation(tiltX: axes.tiltX, tiltY: axes.tiltY)
                changed.insert(.rotation)
            }
            changed.remove([.tiltX, .tiltY])
            axes.tiltX = 0
            axes.tiltY = 0
        } else if changed.contains(.rotation), let z = device.abs(Code.absZ) {
            axes.rotation = AxisMath.artPenRotation(z, absValue[Int(Code.absZ)])
        }
    }

    /// tablet_history_push: after a reset the first sample fills the whole history.
    private mutating func pushHistory(_ sample: RawAxes) {
        let size = history.count
        repeat {
            historyIndex = (historyIndex + 1) % size
            history[historyIndex] = sample
            historyCount = min(historyCount + 1, size)
        } while historyCount < size
    }

    /// tablet_smoothen_axes: the mean of the history; x and y in C's integer arithmetic.
    private func smooth(_ a: inout RawAxes) {
        let size = history.count
        var sumX: Int32 = 0, sumY: Int32 = 0, tiltX = 0.0, tiltY = 0.0
        // newest first, as tablet_history_get counts: a sum of doubles depends on its order, and
        // the slots' order depends on every report since the tablet was opened
        for back in 0..<size {
            let sample = history[(historyIndex + size - back) % size]
            sumX = sumX &+ sample.x
            sumY = sumY &+ sample.y
            tiltX += sample.tiltX
            tiltY += sample.tiltY
        }
        // int / size_t divides as unsigned, as C does
        a.x = Int32(truncatingIfNeeded: UInt64(bitPattern: Int64(sumX)) / UInt64(size))
        a.y = Int32(truncatingIfNeeded: UInt64(bitPattern: Int64(sumY)) / UInt64(size))
        a.tiltX = tiltX / Double(size)
        a.tiltY = tiltY / Double(size)
    }

    private func emitButtons(_ mask: UInt16, _ state: TabletEvent.State, tool t: Int, time: UInt64,
                             into out: inout [TabletEvent]) {
        guard mask != 0 else { return }
        for (i, code) in ToolButtons.codes.enumerated() where mask & (1 << UInt16(i)) != 0 {
            var event = makeEvent(.button, state, tipDown: status.contains(.toolInContact), axes, [], tool: t, time: time)
            event.button = UInt32(code)
            out.append(event)
        }
    }

    private func emit(_ kind: TabletEvent.Kind, _ state: TabletEvent.State?, tipDown: Bool, _ a: RawAxes,
                      _ changedAxes: TabletAxisSet, tool t: Int, time: UInt64, into out: inout [TabletEvent]) {
        out.append(makeEvent(kind, state, tipDown: tipDown, a, changedAxes, tool: t, time: time))
    }

    /// libinput has no has_x/has_y getters: every tool has a position.
    static let positionAxes: TabletAxisSet = [.x, .y]

    private func makeEvent(_ kind: TabletEvent.Kind, _ state: TabletEvent.State?, tipDown: Bool, _ a: RawAxes,
                           _ changedAxes: TabletAxisSet, tool t: Int, time: UInt64) -> TabletEvent {
        var values = TabletAxes()
        values.x = AxisMath.mm(device.x, a.x)
        values.y = AxisMath.mm(device.y, a.y)
        values.pressure = a.pressure
        values.distance = a.distance
        values.tiltX = a.tiltX
        values.tiltY = a.tiltY
        values.rotation = a.rotation
        values.slider = a.slider
        values.wheel = a.wheel
        values.wheelDiscrete = a.wheelDiscrete
        let tool = tools[t]
        return TabletEvent(kind: kind, time: time, tool: tool.identity, state: state, tipDown: tipDown,
                           axes: values, toolAxes: tool.axes.subtracting(Self.positionAxes), changedAxes: changedAxes)
    }
}
