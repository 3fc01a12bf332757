/// One JSON object per event, with libinput's names, as `penkit replay --events --json`
/// prints it and as the libinput oracle fixtures store it. Hand-written so the
/// live path encodes without Foundation; doubles print in Swift's shortest
/// round-trip form, so no precision is lost.
extension TabletEvent {
    public func jsonLine() -> String {
        var s = "{\"type\":\"\(kind.rawValue)\",\"time\":\(time)"
        s += ",\"tool\":{\"type\":\"\(tool.type.rawValue)\",\"serial\":\(tool.serial),\"id\":\(tool.id)}"
        if let state { s += ",\"state\":\"\(state.rawValue)\"" }
        s += ",\"tip\":\"\(tipDown ? "down" : "up")\""
        s += ",\"x\":\(axes.x),\"y\":\(axes.y)"
        if toolAxes.contains(.pressure) { s += ",\"pressure\":\(axes.pressure)" }
        if toolAxes.contains(.distance) { s += ",\"distance\":\(axes.distance)" }
        if toolAxes.contains(.tiltX) { s += ",\"tilt_x\":\(axes.tiltX)" }
        if toolAxes.contains(.tiltY) { s += ",\"tilt_y\":\(axes.tiltY)" }
        if toolAxes.contains(.rotation) { s += ",\"rotation\":\(axes.rotation)" }
        if toolAxes.contains(.slider) { s += ",\"slider\":\(axes.slider)" }
        if toolAxes.contains(.wheel) {
            s += ",\"wheel\":\(axes.wheel),\"wheel_discrete\":\(axes.wheelDiscrete)"
        }
        if let button { s += ",\"button\":\(button)" }
        s += ",\"changed\":["
        var first = true
        for (axis, name) in TabletAxisSet.jsonNames where changedAxes.contains(axis) {
            s += first ? "\"\(name)\"" : ",\"\(name)\""
            first = false
        }
        s += "]}"
        return s
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
