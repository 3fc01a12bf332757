/// One JSON object per event, with libinput's names, as `penkit replay --events --json`
/// prints it and as the libinput oracle fixtures store it. Hand-written so the
/// live path encodes without Foundation; doubles print in Swift's shortest
/// round-trip form, so no precision is lost.
extension TabletEvent: WireMessage {
    public func write(to w: inout JSONWriter) {
        w.raw("{")
        w.field("type", plain: kind.rawValue)
        w.field("time", time)
        w.key("tool"); w.write(tool)
        if let state { w.field("state", plain: state.rawValue) }
        w.field("tip", plain: tipDown ? "down" : "up")
        w.field("x", axes.x)
        w.field("y", axes.y)
        if toolAxes.contains(.pressure) { w.field("pressure", axes.pressure) }
        if toolAxes.contains(.distance) { w.field("distance", axes.distance) }
        if toolAxes.contains(.tiltX) { w.field("tilt_x", axes.tiltX) }
        if toolAxes.contains(.tiltY) { w.field("tilt_y", axes.tiltY) }
        if toolAxes.contains(.rotation) { w.field("rotation", axes.rotation) }
        if toolAxes.contains(.slider) { w.field("slider", axes.slider) }
        if toolAxes.contains(.wheel) {
            w.field("wheel", axes.wheel)
            w.field("wheel_discrete", axes.wheelDiscrete)
        }
        if let button { w.field("button", button) }
        w.key("changed"); w.raw("[")
        for (axis, name) in TabletAxisSet.jsonNames where changedAxes.contains(axis) {
            w.separateElement()
            w.plainString(name)
        }
        w.raw("]")
        w.raw("}")
    }
}

extension TabletAxisSet {
    /// Axis names as they appear in JSON, in a fixed order.
    public static let jsonNames: [(TabletAxisSet, String)] = [
        (.x, "x"), (.y, "y"), (.pressure, "pressure"), (.distance, "distance"),
        (.tiltX, "tilt_x"), (.tiltY, "tilt_y"), (.rotation, "rotation"), (.slider, "slider"),
        (.wheel, "wheel"), (.size, "size"),
    ]
}
