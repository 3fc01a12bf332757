import PenKit

/// libinput's struct libinput_tablet_tool: created on a tool's first proximity and kept, with
/// its capabilities and pressure thresholds (which the pressure-offset rule moves) for the
/// rest of the session.
struct TabletTool: Sendable {
    let type: ToolType
    let serial: UInt32
    let id: UInt32
    let axes: TabletAxisSet
    var lowerThreshold: Int32
    var upperThreshold: Int32
    var pressureOffset: Int32 = 0
    var hasPressureOffset = false

    var identity: ToolIdentity { ToolIdentity(type: type, serial: UInt64(serial), id: UInt64(id)) }

    init(type: ToolType, serial: UInt32, id: UInt32, device: TabletDevice) {
        self.type = type
        self.serial = serial
        self.id = id
        axes = Self.axes(type: type, id: id, device: device)
        // tool_set_pressure_thresholds: 1 % and 5 % of the range, or a quirk's range.
        if let p = device.abs(Code.absPressure) {
            pressureOffset = p.minimum
            var hi = rangePercentage(p, 5), lo = rangePercentage(p, 1)
            if let r = device.quirks.pressureRange, r.lower < r.upper { hi = r.upper; lo = r.lower }
            upperThreshold = hi
            lowerThreshold = lo
        } else {
            upperThreshold = 1
            lowerThreshold = 0
        }
    }

    /// tool_set_bits: x/y always; the rest from libwacom's stylus entry when it knows the
    /// tool id, else every axis the tablet has that suits the tool type.
    static func axes(type: ToolType, id: UInt32, device: TabletDevice) -> TabletAxisSet {
        let tablet = device.axisCaps
        var axes = tablet.intersection([.x, .y])
        if let stylus = device.libwacom?.stylus(id: id) {
            if stylus.hasWheel { axes.formUnion(tablet.intersection(.wheel)) }
            if stylus.axes.contains("Tilt") {
                // a puck's tilt becomes rotation, set whether or not the tablet has it
                if stylus.isPuck { axes.insert(.rotation) } else { axes.formUnion(tablet.intersection([.tiltX, .tiltY])) }
            }
            if stylus.axes.contains("RotationZ") { axes.formUnion(tablet.intersection(.rotation)) }
            if stylus.axes.contains("Distance") { axes.formUnion(tablet.intersection(.distance)) }
            if stylus.axes.contains("Slider") { axes.formUnion(tablet.intersection(.slider)) }
            if stylus.axes.contains("Pressure") { axes.formUnion(tablet.intersection(.pressure)) }
            return axes
        }
        switch type {
        case .pen, .eraser, .pencil, .brush, .airbrush:
            axes.formUnion(tablet.intersection([.pressure, .distance, .tiltX, .tiltY, .slider]))
            if device.delivers(Code.evAbs, Code.absZ) { axes.formUnion(tablet.intersection(.rotation)) }
        case .mouse, .lens:
            axes.formUnion(tablet.intersection([.rotation, .wheel]))
        }
        return axes
    }
}

/// axis_range_percentage: C truncates the double toward zero when it returns int.
func rangePercentage(_ a: AbsInfo, _ percent: Double) -> Int32 {
    Int32(((Double(a.maximum) - Double(a.minimum)) * percent / 100.0 + Double(a.minimum)).rounded(.towardZero))
}
