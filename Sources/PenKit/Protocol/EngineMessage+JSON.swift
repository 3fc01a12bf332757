/// The wire form of engine messages: one JSON object per line, hand-written so
/// the live path encodes without Foundation. docs/protocol.md documents it;
/// EngineMessage+Decoding.swift reads it back.
extension EngineMessage: WireMessage {
    public func write(to w: inout JSONWriter) {
        w.raw("{")
        w.field("type", plain: typeName)
        switch self {
        case .frame(let m):
            w.key("tool"); w.write(m.tool)
            if let stroke = m.stroke { w.field("stroke", stroke) }
            w.key("sample"); w.write(m.sample)
            w.key("predicted"); w.raw("[")
            for p in m.predicted { w.separateElement(); w.write(p) }
            w.raw("]")
            if let error = m.expectedError { w.field("expectedError", error) }
            if let lift = m.liftProbability { w.field("liftProbability", lift) }
            if let delivered = m.delivered {
                w.key("delivered"); w.raw("{")
                w.field("x", delivered.x); w.field("y", delivered.y)
                if let time = delivered.time { w.field("t", time) }
                w.raw("}")
            }
        case .began(let m):
            w.field("stroke", m.stroke)
            w.key("tool"); w.write(m.tool)
            w.key("ink"); w.write(m.ink)
            w.field("t", m.time)
        case .update(let m):
            if let stroke = m.stroke { w.field("stroke", stroke) }
            w.field("updateIndex", m.updateIndex)
            w.key("updated"); w.write(m.updated)
            w.key("expired"); w.write(m.expired)
            w.key("sample"); w.write(m.sample)
        case .ended(let m):
            w.field("stroke", m.stroke)
            w.field("t", m.time)
            w.field("cancelled", m.cancelled)
            w.field("pendingUpdates", m.pendingUpdates)
        case .stroke(let m):
            w.field("seq", m.seq)
            w.key("stroke"); w.write(m.stroke)
        }
        w.field("device", device)
        w.raw("}")
    }
}

extension JSONWriter {
    public mutating func write(_ tool: ToolIdentity) {
        raw("{")
        field("type", plain: tool.type.rawValue)
        field("serial", tool.serial)
        field("id", tool.id)
        raw("}")
    }

    public mutating func write(_ set: ChannelSet) {
        raw("[")
        for channel in set.channels {
            separateElement()
            plainString(channel.rawValue)
        }
        raw("]")
    }

    public mutating func write(_ set: SampleProperties) {
        raw("[")
        for (property, name) in SampleProperties.jsonNames where set.contains(property) {
            separateElement()
            plainString(name)
        }
        raw("]")
    }

    public mutating func write(_ s: Sample) {
        raw("{")
        field("t", s.time)
        field("x", s.x)
        field("y", s.y)
        field("force", s.force)
        field("azimuth", s.azimuth)
        field("altitude", s.altitude)
        field("roll", s.roll)
        field("distance", s.distance)
        key("estimated"); write(s.estimated)
        key("expecting"); write(s.expectingUpdates)
        if let index = s.updateIndex { field("updateIndex", index) }
        if let raw = s.rawForce { field("rawForce", raw) }
        if let x = s.outputX, let y = s.outputY {
            field("outputX", x)
            field("outputY", y)
        }
        raw("}")
    }

    public mutating func write(_ ink: Ink) {
        raw("{")
        field("type", plain: ink.type.rawValue)
        key("color")
        byte(UInt8(ascii: "\""))
        ink.color.appendHex(to: &self)
        byte(UInt8(ascii: "\""))
        field("width", ink.width)
        raw("}")
    }

    public mutating func write(_ p: StrokeSample) {
        raw("{")
        field("t", p.time)
        field("x", p.x)
        field("y", p.y)
        field("force", p.force)
        field("azimuth", p.azimuth)
        field("altitude", p.altitude)
        field("roll", p.roll)
        field("size", p.size)
        field("opacity", p.opacity)
        key("estimated"); write(p.estimated)
        raw("}")
    }

    public mutating func write(_ p: StrokePoint) {
        raw("{")
        field("timeOffset", p.timeOffset)
        field("x", p.x)
        field("y", p.y)
        field("size", p.size)
        field("opacity", p.opacity)
        field("azimuth", p.azimuth)
        field("force", p.force)
        field("altitude", p.altitude)
        raw("}")
    }

    public mutating func write(_ stroke: Stroke) {
        _ = write(stroke, withElements: true)
    }

    /// The stroke object; without elements its `points` and `controlPoints` arrays are left
    /// empty (`PartedStroke`'s skeleton). Returns where each array's elements go: the offset
    /// just after its `[`. One writer for both, so the whole line and its parts cannot differ.
    mutating func write(_ stroke: Stroke, withElements: Bool) -> (points: Int, controlPoints: Int) {
        raw("{")
        field("id", stroke.id)
        key("tool"); write(stroke.tool)
        key("ink"); write(stroke.ink)
        field("cancelled", stroke.cancelled)
        field("creationTime", stroke.creationTime)
        key("points"); raw("[")
        let points = count
        if withElements { for p in stroke.points { separateElement(); write(p) } }
        raw("]")
        key("path"); raw("{")
        field("creationTime", stroke.path.creationTime)
        key("controlPoints"); raw("[")
        let controlPoints = count
        if withElements { for p in stroke.path.controlPoints { separateElement(); write(p) } }
        raw("]}")
        raw("}")
        return (points, controlPoints)
    }
}

extension InkColor {
    /// "#rrggbbaa", each component rounded to 8 bits.
    public var hexString: String {
        var w = JSONWriter(capacity: 9)
        appendHex(to: &w)
        return w.text
    }

    func appendHex(to w: inout JSONWriter) {
        let digits: StaticString = "0123456789abcdef"
        func component(_ c: Double) {
            let v = Int((min(max(c, 0), 1) * 255).rounded())
            w.byte(digits.utf8Start[v >> 4])
            w.byte(digits.utf8Start[v & 15])
        }
        w.byte(UInt8(ascii: "#"))
        component(red)
        component(green)
        component(blue)
        component(alpha)
    }

    public init?(hexString: String) {
        let u = Array(hexString.utf8)
        guard u.count == 9, u[0] == UInt8(ascii: "#") else { return nil }
        var c: [Double] = []
        for i in stride(from: 1, to: 9, by: 2) {
            guard let hi = Self.hexValue(u[i]), let lo = Self.hexValue(u[i + 1]) else { return nil }
            c.append(Double(hi * 16 + lo) / 255)
        }
        self.init(red: c[0], green: c[1], blue: c[2], alpha: c[3])
    }

    private static func hexValue(_ c: UInt8) -> Int? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): Int(c - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): Int(c - UInt8(ascii: "a")) + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): Int(c - UInt8(ascii: "A")) + 10
        default: nil
        }
    }
}
