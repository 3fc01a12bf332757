import CLibevdev
import PenEngine
import PenInput
import PenKit

/// One virtual tablet's pen: turns the real tablet's events, as penkitd's libinput reads them
/// (raw, unsmoothed), into the evdev frames the virtual tablet writes.
///
/// What goes in is the real pen, applied once: the device's mapping (area, rotation) and the tool's
/// feel (thresholds, curve) as penkit's engine applies them, the jitter filter on x and y, and
/// contact as libinput decided it or as the tool's `tip-threshold` says. What never goes in:
/// predictions (ink drawn from them could not be taken back) and late updates (an evdev event
/// cannot be revised).
package struct VirtualPen: Sendable {
    package let layout: VirtualTabletLayout
    /// Whether the jitter filter runs: only where the compositor's libinput would smooth the real
    /// device (docs/virtual-tablet.md, "Do no harm"). A device libinput leaves raw is carried raw:
    /// its users see no trailing they did not see before.
    package let smoothing: Bool
    private var filter: JitterFilter
    /// The tool the virtual tablet shows in proximity, nil when none.
    private var tool: ToolIdentity?
    private var touching = false
    private var pressed: Set<UInt16> = []
    /// The tool key written at proximity-in (BTN_TOOL_RUBBER while a button mapped to the eraser is held).
    private var toolKeyWritten: UInt16?
    /// The barrel button held that makes the pen the eraser (`BarrelButtonAction.eraser`), nil when none.
    private var eraserButton: UInt16?
    private var position = SIMD2<Double>(0, 0)
    /// What the last frame wrote for the pen's position (mm, the mapped space); nil out of proximity.
    package private(set) var delivered: SIMD2<Double>?
    /// Whether the last frame wrote the pen ahead of the real one (a lead): a lift must first put
    /// it back where the real pen is.
    private var ledAhead = false

    package init(layout: VirtualTabletLayout, filter: JitterFilter.Parameters = .standard, smoothing: Bool = true) {
        self.layout = layout
        self.smoothing = smoothing
        self.filter = JitterFilter(parameters: filter)
    }

    /// Whether a tool is in proximity on the virtual tablet.
    package var isInProximity: Bool { tool != nil }

    /// Appends the frame (ending with SYN_REPORT) that carries `event`, or nothing when the event
    /// changes nothing the virtual tablet shows (a mouse or lens tool, say). `ahead`: where
    /// penkit's prediction puts the pen the configured lead from now, relative to the real pen
    /// (`VirtualTabletLead`); written only while the pen stays in contact, so the report that
    /// lifts it ends the ink on the real pen's last report in contact (no predicted tail in anyone's ink).
    package mutating func translate(_ event: TabletEvent, mapping: DeviceMapping?, feel: PenFeel,
                                   ahead: SIMD2<Double>? = nil, into out: inout [EvdevEvent]) {
        guard let toolKey = Self.toolKey(event.tool.type), layout.keys.contains(toolKey) || toolKey == UInt16(BTN_TOOL_PEN) else { return }
        let start = out.count
        let t = event.time
        if event.kind == .proximity && event.state == .proximityOut {
            leave(at: t, into: &out)
            eraserButton = nil
            return
        }
        // Hover gating (the tool's `hover-cutoff`, as OpenTabletDriver's): a pen hovering higher
        // is out of range for apps too, so the cursor does not follow a hand lifting the pen away.
        if !event.tipDown && !touching && event.toolAxes.contains(.distance) && feel.isBeyondHoverCutoff(event.axes.distance) {
            leave(at: t, into: &out)
            return
        }
        if let current = tool, current != event.tool { leave(at: t, into: &out) }
        // A barrel button mapped to the eraser turns the pen into the eraser while it is held, as
        // flipping the pen would: the pen leaves, the eraser comes in where it was.
        let remap = Self.remap(event, feel: feel)
        if case .eraser? = remap?.action, (eraserButton != nil) != remap!.down {
            leave(at: t, into: &out)
            eraserButton = remap!.down ? remap!.code : nil
        }
        let entering = tool == nil
        let keyNow = eraserButton != nil ? UInt16(BTN_TOOL_RUBBER) : toolKey
        if entering {
            tool = event.tool
            toolKeyWritten = keyNow
            filter.reset()
            append(t, EV_KEY, Int32(keyNow), 1, to: &out)
            if layout.hasToolID { append(t, EV_ABS, ABS_MISC, Int32(truncatingIfNeeded: event.tool.id), to: &out) }
            if layout.hasSerial { append(t, EV_MSC, MSC_SERIAL, Int32(bitPattern: VirtualTabletIdentity.toolSerial(ofReal: event.tool.serial)), to: &out) }
        }

        var axes = event.axes
        mapping?.apply(to: &axes)
        // The filter starts afresh when contact changes, as libinput's smoothing does: a stroke's
        // first position is where the pen touched, not a mean with the hover before it.
        let touchingNow = contact(event, feel: feel)
        if touchingNow != touching { filter.reset() }
        // Every report advances the filter, also one that leaves x and y as they were (a pressure
        // change, say): the filter counts reports, and one that skipped them would move in stairs.
        // A button event does not advance it: it follows its frame's axis or tip event, or comes
        // alone in a frame where no axis changed (as the experiment the filter was chosen with).
        // The real pen at the last report, before this one moves it: at a lift, the last report
        // in contact.
        let lastReal = position
        if entering || event.kind != .button {
            let raw = SIMD2(axes.x, axes.y)
            position = smoothing ? filter.filter(raw, inContact: touchingNow) : raw
        }
        if touching && !touchingNow && ledAhead {
            // The pen lifts while written ahead: the real pen of the last report in contact goes
            // down first, so the app's ink ends where it ends without a lead. Not the lifting
            // report's position: the real pen was no longer in contact there, and ink to it would
            // be a tail the pen never drew (up to 1.8 mm on the Intuos4 drag).
            appendPosition(lastReal, at: t, to: &out)
            append(t, EV_SYN, SYN_REPORT, 0, to: &out)
        }
        let written = touchingNow && touching ? position + (ahead ?? .zero) : position
        ledAhead = written != position
        delivered = written
        appendPosition(written, at: t, to: &out)

        touching = touchingNow
        if layout.hasPressure {
            append(t, EV_ABS, ABS_PRESSURE, touching ? Self.pressureUnits(feel.force(fromRaw: axes.pressure)) : 0, to: &out)
        }
        if layout.hasDistance {
            let units = (min(max(axes.distance, 0), 1) * Double(VirtualTabletLayout.distanceMaximum)).rounded()
            append(t, EV_ABS, ABS_DISTANCE, touching ? 0 : Int32(units), to: &out)
        }
        if layout.hasTilt && event.toolAxes.contains(.tiltX) {
            append(t, EV_ABS, ABS_TILT_X, Self.tiltUnits(axes.tiltX), to: &out)
            append(t, EV_ABS, ABS_TILT_Y, Self.tiltUnits(axes.tiltY), to: &out)
        }
        if layout.hasRotation && event.toolAxes.contains(.rotation) {
            append(t, EV_ABS, ABS_Z, Self.rotationUnits(axes.rotation), to: &out)
        }
        if layout.hasSlider && event.toolAxes.contains(.slider) {
            let units = ((min(max(axes.slider, -1), 1) + 1) / 2 * Double(VirtualTabletLayout.sliderMaximum)).rounded()
            append(t, EV_ABS, ABS_WHEEL, Int32(units), to: &out)
        }
        append(t, EV_KEY, BTN_TOUCH, touching ? 1 : 0, to: &out)
        if event.kind == .button, let code = event.button.map({ UInt16(truncatingIfNeeded: $0) }),
           layout.keys.contains(code) {
            let down = event.state == .pressed
            // A remapped button is written as its click, or not at all (none, and the eraser,
            // which changed the tool above).
            let written = remap.map { $0.action.clickCode } ?? code
            if let written, layout.keys.contains(written) {
                if down { pressed.insert(written) } else { pressed.remove(written) }
                append(t, EV_KEY, Int32(written), down ? 1 : 0, to: &out)
            }
        }
        if out.count > start { append(t, EV_SYN, SYN_REPORT, 0, to: &out) }
    }

    /// Takes the tool out of proximity: lifts it, releases its buttons, then its tool key. For a
    /// proximity-out, and for penkitd's stop or the real tablet's removal, so that no app is left
    /// with a pen down.
    package mutating func leave(at time: UInt64, into out: inout [EvdevEvent]) {
        guard let current = tool else { return }
        if touching && ledAhead {
            appendPosition(position, at: time, to: &out)
            append(time, EV_SYN, SYN_REPORT, 0, to: &out)
            ledAhead = false
        }
        if touching {
            if layout.hasPressure { append(time, EV_ABS, ABS_PRESSURE, 0, to: &out) }
            append(time, EV_KEY, BTN_TOUCH, 0, to: &out)
            touching = false
        }
        for code in pressed.sorted() { append(time, EV_KEY, Int32(code), 0, to: &out) }
        pressed.removeAll()
        if let key = toolKeyWritten ?? Self.toolKey(current.type) { append(time, EV_KEY, Int32(key), 0, to: &out) }
        toolKeyWritten = nil
        if layout.hasSerial { append(time, EV_MSC, MSC_SERIAL, Int32(bitPattern: VirtualTabletIdentity.toolSerial(ofReal: current.serial)), to: &out) }
        append(time, EV_SYN, SYN_REPORT, 0, to: &out)
        tool = nil
        delivered = nil
    }

    /// The tool's remap of a barrel button event (`button-N` in its `[tool]` section): the
    /// button's code, whether it goes down, and what it does; nil for another event or a
    /// button written as pressed.
    private static func remap(_ event: TabletEvent, feel: PenFeel) -> (code: UInt16, down: Bool, action: BarrelButtonAction)? {
        guard event.kind == .button, let button = event.button else { return nil }
        let code = UInt16(truncatingIfNeeded: button)
        guard let number = BarrelButtonAction.number(ofCode: code), let action = feel.buttons[number] else { return nil }
        return (code, event.state == .pressed, action)
    }

    /// libinput's tip state, unless the tool has a `tip-threshold`: then the raw pressure decides,
    /// touching from the threshold and lifting at half of it (a margin against flicker, as
    /// libinput's own 5 % down and 1 % up).
    private func contact(_ event: TabletEvent, feel: PenFeel) -> Bool {
        guard let threshold = feel.tipThreshold else { return event.tipDown }
        return touching ? event.axes.pressure > threshold / 2 : event.axes.pressure >= threshold
    }

    /// The pressure written for a force in [0, 1]: under the quirk's AttrPressureRange=2:1 libinput
    /// reads (v − 1) / (65535 − 1), so v = 1 + force · 65534; at least 2, which keeps the pen down.
    static func pressureUnits(_ force: Double) -> Int32 {
        let span = Double(VirtualTabletLayout.pressureMaximum - 1)
        return max(2, 1 + Int32((min(max(force, 0), 1) * span).rounded()))
    }

    static func tiltUnits(_ degrees: Double) -> Int32 {
        let limit = (Double.pi / 2 * Double(VirtualTabletLayout.tiltResolution)).rounded(.down)
        return Int32(min(max((degrees * .pi / 180 * Double(VirtualTabletLayout.tiltResolution)).rounded(), -limit), limit))
    }

    /// libinput reads the art pen's ABS_Z as (v / 3600 · 360 + 90) mod 360 degrees.
    static func rotationUnits(_ degrees: Double) -> Int32 {
        var d = (degrees - 90).truncatingRemainder(dividingBy: 360)
        if d < 0 { d += 360 }
        return Int32((d * Double(VirtualTabletLayout.rotationSteps) / 360).rounded()) % VirtualTabletLayout.rotationSteps
    }

    /// ABS_X and ABS_Y for a position (mm), each stopped at the tablet's edge.
    private func appendPosition(_ p: SIMD2<Double>, at time: UInt64, to out: inout [EvdevEvent]) {
        append(time, EV_ABS, ABS_X, clampedUnits(p.x, max: layout.description.absInfo[UInt16(ABS_X)]!.maximum), to: &out)
        append(time, EV_ABS, ABS_Y, clampedUnits(p.y, max: layout.description.absInfo[UInt16(ABS_Y)]!.maximum), to: &out)
    }

    private func clampedUnits(_ mm: Double, max: Int32) -> Int32 {
        min(Swift.max(VirtualTabletLayout.units(mm), 0), max)
    }

    static func toolKey(_ type: ToolType) -> UInt16? {
        switch type {
        case .pen: UInt16(BTN_TOOL_PEN)
        case .eraser: UInt16(BTN_TOOL_RUBBER)
        case .brush: UInt16(BTN_TOOL_BRUSH)
        case .pencil: UInt16(BTN_TOOL_PENCIL)
        case .airbrush: UInt16(BTN_TOOL_AIRBRUSH)
        case .mouse, .lens: nil
        }
    }

    private func append(_ time: UInt64, _ type: Int32, _ code: Int32, _ value: Int32, to out: inout [EvdevEvent]) {
        out.append(EvdevEvent(time: time, type: UInt16(type), code: UInt16(code), value: value))
    }
}
