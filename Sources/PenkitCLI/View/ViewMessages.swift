import PenKit

// The lines `penkit view` adds to what penkitd or the replay says (docs/view.md).

/// The view's own first line to a page: what it shows, and the sensor's size when known.
struct ViewIntro: WireMessage {
    var mode: String
    var source: String
    var device: String?
    /// The sensor in mm (width, height), for a replay; live input's page grows to fit what it sees.
    var area: (width: Double, height: Double)?

    func write(to w: inout JSONWriter) {
        w.raw("{")
        w.field("type", plain: "view")
        w.field("mode", plain: mode)
        w.field("source", string: source)
        if let device { w.field("device", string: device) }
        if let area {
            w.key("area")
            w.raw("{")
            w.field("width", area.width)
            w.field("height", area.height)
            w.raw("}")
        }
        w.raw("}")
    }
}

/// `{"type":"clock","t":µs}`: the feed's clock now, on the clock of the messages' `t`, so that the
/// page can tell how long an event took to reach it.
struct ViewClock: WireMessage {
    var time: UInt64

    func write(to w: inout JSONWriter) {
        w.raw("{")
        w.field("type", plain: "clock")
        w.field("t", time)
        w.raw("}")
    }
}

/// `{"type":"end","message":"…"}`: a replay has sent everything.
struct ViewEnd: WireMessage {
    var message: String

    func write(to w: inout JSONWriter) {
        w.raw("{")
        w.field("type", plain: "end")
        w.field("message", string: message)
        w.raw("}")
    }
}

/// A fatal `error` line (code `connection`) for the page when penkitd cannot be reached or is lost.
struct ViewConnectionError: WireMessage {
    var message: String

    func write(to w: inout JSONWriter) {
        w.raw("{")
        w.field("type", plain: "error")
        w.field("code", plain: "connection")
        w.field("message", string: message)
        w.field("fatal", true)
        w.raw("}")
    }
}
