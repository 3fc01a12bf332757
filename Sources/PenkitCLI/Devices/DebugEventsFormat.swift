import Foundation
import PenKit

/// Tablet-tool events in the layout of `libinput debug-events` (tools/libinput-debug-events.c):
/// header, time since the first event, then the axes, `*` marking those that changed.
struct DebugEventsFormat {
    let start: UInt64
    private var lastDevice: Int?
    private var seatButtons = 0

    init(start: UInt64) { self.start = start }

    mutating func line(_ e: TabletEvent, device: Int) -> String {
        let prefix = lastDevice == device ? " " : "-"
        lastDevice = device
        let type: String = switch e.kind {
        case .proximity: "TABLET_TOOL_PROXIMITY"
        case .tip: "TABLET_TOOL_TIP"
        case .axis: "TABLET_TOOL_AXIS"
        case .button: "TABLET_TOOL_BUTTON"
        }
        let seconds = Double(e.time &- start) / 1_000_000
        var s = prefix + "event\(device)".padding(toLength: 7, withPad: " ", startingAt: 0) + "  "
            + type.padding(toLength: 23, withPad: " ", startingAt: 0) + " " + String(format: "%+6.3fs ", seconds)
        switch e.kind {
        case .button:
            let pressed = e.state == .pressed
            seatButtons = max(0, seatButtons + (pressed ? 1 : -1))
            let code = e.button ?? 0
            s += String(format: "%3d (%@) %@, seat count: %u", code, EvdevButtonName.name(code),
                        pressed ? "pressed" : "released", seatButtons)
        case .proximity:
            s += axes(e)
            s += "\t" + e.tool.type.rawValue.padding(toLength: 8, withPad: " ", startingAt: 0)
                + String(format: " (%#llx, id %#llx) ", e.tool.serial, e.tool.id)
                + (e.state == .proximityIn ? "proximity-in " : "proximity-out ")
            if e.state == .proximityIn { s += "\taxes:" + Self.axisLetters(e.toolAxes) }
        case .tip:
            s += axes(e) + (e.tipDown ? " down" : " up")
        case .axis:
            s += axes(e)
        }
        return s
    }

    private func axes(_ e: TabletEvent) -> String {
        let a = e.axes, has = e.toolAxes, changed = e.changedAxes
        func mark(_ axis: TabletAxisSet) -> String { changed.contains(axis) ? "*" : "" }
        var s = String(format: "\t%.2f%@/%.2f%@", a.x, mark(.x), a.y, mark(.y))
        if has.contains(.tiltX) { s += String(format: "\ttilt: %.2f%@/%.2f%@", a.tiltX, mark(.tiltX), a.tiltY, mark(.tiltY)) }
        if has.contains(.distance) || has.contains(.pressure) {
            s += a.distance != 0 ? String(format: "\tdistance: %.2f%@", a.distance, mark(.distance))
                : String(format: "\tpressure: %.2f%@", a.pressure, mark(.pressure))
        }
        if has.contains(.rotation) { s += String(format: "\trotation: %6.2f%@", a.rotation, mark(.rotation)) }
        if has.contains(.slider) { s += String(format: "\tslider: %.2f%@", a.slider, mark(.slider)) }
        if has.contains(.wheel) { s += String(format: "\twheel: %.2f%@ (%d)", a.wheel, mark(.wheel), a.wheelDiscrete) }
        return s
    }

    private static func axisLetters(_ has: TabletAxisSet) -> String {
        [(TabletAxisSet.distance, "d"), (.pressure, "p"), (.tiltX, "t"), (.rotation, "r"), (.slider, "s"), (.wheel, "w"), (.size, "S")]
            .filter { has.contains($0.0) }.map(\.1).joined()
    }
}
