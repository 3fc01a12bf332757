import PenKit

/// `penkit events` lines in the manner of `libinput debug-events`: the device (its event node),
/// the event type, the time since the first event, the tool, then values with their units
/// (mm, degrees of tilt, force 0…1) and button names (`BTN_STYLUS`) rather than codes.
/// Frames carry no device, so they are shown on the device whose tool last came into proximity.
struct EventsFormatter {
    private var firstTime: UInt64?
    private var nodes: [Int: String] = [:]
    private var currentDevice: Int?

    mutating func describe(_ message: PenMessage) -> String {
        switch message {
        case .hello(let hello):
            for device in hello.devices { nodes[device.id] = Self.node(device.source) }
            return row("-", "HELLO", nil, "protocol \(hello.version), \(hello.devices.count) device(s), last stroke \(hello.lastSeq)")
        case .subscribed(let subscribed):
            for device in subscribed.devices ?? [] { nodes[device.id] = Self.node(device.source) }
            let listed = subscribed.devices.map { ", \($0.count) device(s)" } ?? ""
            let channels = subscribed.channels.channels.map(\.rawValue).joined(separator: ",")
            return row("-", "SUBSCRIBED", nil, "\(channels) (replaying \(subscribed.replaying) strokes\(listed))")
        case .device(let change):
            nodes[change.device.id] = Self.node(change.device.source)
            let type = change.change == .added ? "DEVICE_ADDED" : "DEVICE_REMOVED"
            return row(node(change.device.id), type, nil, "\(change.device.name) (#\(change.device.id))")
        case .proximity(let p):
            currentDevice = p.device
            return row(node(p.device), "PROXIMITY", p.time, "\(Self.tool(p.tool))  \(p.entering ? "proximity-in" : "proximity-out")")
        case .button(let b):
            return row(node(b.device), "BUTTON", b.time,
                       "\(Self.tool(b.tool))  \(EvdevButtonName.name(b.button)) (\(b.button)) \(b.pressed ? "pressed" : "released")")
        case .engine(let engine):
            return describe(engine)
        case .pad(let p):
            return row(node(p.device), Self.padType(p.event.kind), p.event.time, Self.padText(p.event))
        case .action(let a):
            let press = a.trigger.double ? "double press" : "press"
            let control: String
            switch a.trigger.control {
            case .stylus: control = "\(EvdevButtonName.name(a.button)) (\(a.button)) \(press)" + (a.tool.map { " of \(Self.tool($0))" } ?? "")
            case .pad(let n): control = "pad button \(n) \(press)"
            }
            return row(node(a.device), "ACTION", a.time, "\(a.action)  \(a.trigger.name): \(control)")
        case .padMotionAction(let a):
            return row(node(a.device), "ACTION", a.time,
                       "\(a.action)  \(a.trigger.name): \(a.trigger.control.rawValue) \(a.trigger.number) \(a.trigger.direction) (mode \(a.mode))")
        case .pressureSource(let p):
            var text = p.state.rawValue
            if p.state == .attached {
                text += ": force from a second source"
                if let latency = p.latency, let jitter = p.jitter { text += ", latency \(latency) µs, jitter \(jitter) µs" }
                if let serial = p.serial { text += ", tool serial \(serial)" }
            } else {
                text += ": force from the tablet again" + (p.reason.map { " (\($0))" } ?? "")
            }
            return row(node(p.device), "PRESSURE_SOURCE", nil, text)
        case .overflow(let lastSentSeq, let text):
            let resume = lastSentSeq.map { "; reconnect with --since \($0)" } ?? ""
            return row("-", "ERROR", nil, "overflow (fatal): \(text)\(resume)")
        case .dropped(let d):
            return row("-", "DROPPED", nil, "\(d.frames) frames, \(d.updates) updates, \(d.buttons) buttons (client too slow)")
        case .error(let code, let text, let fatal):
            return row("-", "ERROR", nil, "\(code)\(fatal ? " (fatal)" : ""): \(text)")
        case .shutdown(let shutdown):
            let resume = shutdown.lastSentSeq.map { "; strokes up to seq \($0) sent" } ?? ""
            return row("-", "SHUTDOWN", nil, shutdown.reason + resume)
        case .settingsSaved(let saved):
            return row("-", "SETTINGS", nil, "saved in \(saved.file)")
        case .status(let status):
            // Only on request (`penkit doctor`); events never asks, but says what came.
            return row("-", "STATUS", nil, "\(status.devices.count) device(s)")
        case .unknown(let type, _):
            return row("-", type.uppercased(), nil, "")
        }
    }

    private mutating func describe(_ engine: EngineMessage) -> String {
        let device = currentDevice.map(node) ?? "-"
        switch engine {
        case .frame(let f):
            let where_ = f.stroke.map { "stroke \($0)" } ?? "hover"
            return row(device, "FRAME", f.sample.time, "\(Self.tool(f.tool))  \(Self.values(f.sample))  \(where_)")
        case .began(let b):
            return row(device, "STROKE_BEGAN", b.time, "\(Self.tool(b.tool))  stroke \(b.stroke)")
        case .update(let u):
            return row(device, "UPDATE", u.sample.time, "stroke \(u.stroke.map(String.init) ?? "-")  update \(u.updateIndex)  \(Self.values(u.sample))")
        case .ended(let e):
            return row(device, "STROKE_ENDED", e.time, "stroke \(e.stroke)\(e.cancelled ? " cancelled" : "")")
        case .stroke(let f):
            return row(device, "STROKE", f.stroke.points.first?.time, StrokeLine.describe(f))
        }
    }

    /// libinput debug-events' names of pad events.
    static func padType(_ kind: PadEvent.Kind) -> String {
        switch kind {
        case .button: "TABLET_PAD_BUTTON"
        case .ring: "TABLET_PAD_RING"
        case .strip: "TABLET_PAD_STRIP"
        }
    }

    /// A pad event's values as libinput debug-events prints them: `%3d %s (mode %d)` for a
    /// button, `ring %d position %.2f (source %s) (mode %d)` for a ring (and a strip).
    static func padText(_ e: PadEvent) -> String {
        switch e.kind {
        case .button:
            let number = String(e.number)
            return String(repeating: " ", count: max(0, 3 - number.count)) + number
                + " \(e.pressed ? "pressed" : "released") (mode \(e.mode))"
        case .ring, .strip:
            return "\(e.kind.rawValue) \(e.number) position \(EventsFormat.fixed(e.position)) "
                + "(source \(e.fromFinger ? "finger" : "unknown")) (mode \(e.mode))"
        }
    }

    /// `event5    FRAME          +0.012s  …`: relative times start at the first timed event.
    private mutating func row(_ device: String, _ type: String, _ time: UInt64?, _ text: String) -> String {
        // Longer names (libinput's TABLET_PAD_BUTTON) still get a space before the time.
        var line = Self.pad(device, 9) + " " + Self.pad(type, 15) + (type.count >= 15 ? " " : "")
        if let time {
            let first = firstTime ?? time
            firstTime = first
            let microseconds = Int64(bitPattern: time &- first)
            line += Self.seconds(microseconds)
        } else {
            line += Self.pad("", 9)
        }
        return line + "  " + text
    }

    private func node(_ device: Int) -> String { nodes[device] ?? "#\(device)" }

    /// `/dev/input/event5` → `event5`, as libinput names devices; a trace file by its name.
    static func node(_ source: String) -> String {
        source.split(separator: "/").last.map(String.init) ?? source
    }

    static func tool(_ tool: ToolIdentity) -> String {
        tool.serial == 0 ? tool.type.rawValue : "\(tool.type.rawValue) (serial \(tool.serial))"
    }

    /// Position in mm, tilt in degrees (libinput's tilt x/y, back from azimuth and altitude),
    /// force 0…1, and distance 0…1 while hovering.
    static func values(_ s: Sample) -> String {
        let tilt = PenMath.tiltDegrees(azimuth: s.azimuth, altitude: s.altitude)
        var text = "\(EventsFormat.fixed(s.x))/\(EventsFormat.fixed(s.y)) mm  tilt \(EventsFormat.fixed(tilt.x))/\(EventsFormat.fixed(tilt.y))°"
        text += "  force \(EventsFormat.fixed(s.force, 3))"
        if s.distance > 0 { text += "  distance \(EventsFormat.fixed(s.distance, 3))" }
        return text
    }

    /// `+1.234s`, libinput's `%+6.3fs`.
    static func seconds(_ microseconds: Int64) -> String {
        let sign = microseconds < 0 ? "-" : "+"
        let magnitude = microseconds.magnitude
        let millis = (magnitude + 500) / 1000
        let fraction = String(millis % 1000)
        return sign + "\(millis / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction + "s"
    }

    static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
    }
}

/// Fixed-point numbers without Foundation's formatter.
enum EventsFormat {
    static func fixed(_ value: Double, _ digits: Int = 2) -> String {
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let rounded = (value * scale).rounded() / scale
        var text = "\(rounded == 0 ? 0 : rounded)"
        if let dot = text.firstIndex(of: ".") {
            let decimals = text.distance(from: dot, to: text.endIndex) - 1
            if decimals < digits { text += String(repeating: "0", count: digits - decimals) }
        }
        return text
    }
}
