/// One stroke in the drawing format (docs/drawing-format.md, "Stroke").
enum StrokeRecord {
    /// Bytes of the smallest possible stroke record, to bound counts before allocating.
    static let minimumSize = 1 + 2 + 1 + 1 + 2 + 40 + 1 + 48 + 4 + 1 + 1 + 1

    enum Flag {
        static let cancelled: UInt8 = 1
        static let mask: UInt8 = 2
        static let clip: UInt8 = 4
        static let known: UInt8 = 7
    }

    static func write(_ stroke: Stroke, version: UInt16, to w: inout DrawingByteWriter) {
        w.varint(stroke.id)
        w.string(stroke.tool.type.rawValue)
        w.varint(stroke.tool.serial)
        w.varint(stroke.tool.id)
        w.string(stroke.ink.type.rawValue)
        for c in [stroke.ink.color.red, stroke.ink.color.green, stroke.ink.color.blue, stroke.ink.color.alpha] { w.f64(c) }
        w.f64(stroke.ink.width)
        var flags: UInt8 = stroke.cancelled ? Flag.cancelled : 0
        if let mask = stroke.mask {
            flags |= Flag.mask
            if mask.clip != nil { flags |= Flag.clip }
        }
        w.u8(flags)
        writeTransform(stroke.transform, to: &w)
        w.u32(stroke.randomSeed)
        w.varint(stroke.creationTime)
        writeSamples(stroke.points, creationTime: stroke.creationTime, to: &w)
        writeControlPoints(stroke.path.controlPoints, samples: stroke.points, creationTime: stroke.creationTime,
                           version: version, to: &w)
        if let mask = stroke.mask { writeMask(mask, to: &w) }
    }

    static func read(version: UInt16, from r: inout DrawingByteReader) throws(DrawingFormatError) -> Stroke {
        let id = try r.varint("stroke id")
        let toolName = try r.string("tool type")
        guard let toolType = ToolType(rawValue: toolName) else { throw r.corrupt("unknown tool type \"\(toolName)\"") }
        let tool = ToolIdentity(type: toolType, serial: try r.varint("tool serial"), id: try r.varint("tool id"))
        let inkName = try r.string("ink type")
        guard let inkType = Ink.InkType(rawValue: inkName), version >= 2 || inkType.isInVersion1 else {
            throw r.corrupt("unknown ink type \"\(inkName)\"")
        }
        let color = InkColor(red: try r.f64("ink red"), green: try r.f64("ink green"), blue: try r.f64("ink blue"),
                             alpha: try r.f64("ink alpha"))
        let widthAt = r.offset
        let width = try r.f64("ink width")
        var ink = Ink(inkType, color: color)
        guard inkType.validWidthRange.contains(width) else {
            throw .corrupt(offset: widthAt, reason: "\(inkName) width \(width) is outside \(inkType.validWidthRange)")
        }
        ink.width = width
        let flags = try r.u8("stroke flags")
        guard flags & ~Flag.known == 0 else { throw r.corrupt("unknown stroke flags 0x\(String(flags, radix: 16))") }
        guard flags & Flag.clip == 0 || flags & Flag.mask != 0 else { throw r.corrupt("clip flag without mask flag") }
        let transform = try readTransform(from: &r)
        let seed = try r.u32("random seed")
        let creationTime = try r.varint("creation time")
        let samples = try readSamples(creationTime: creationTime, from: &r)
        let controls = try readControlPoints(samples: samples, creationTime: creationTime, version: version, from: &r)
        let mask = flags & Flag.mask != 0 ? try readMask(hasClip: flags & Flag.clip != 0, from: &r) : nil
        return Stroke(id: id, tool: tool, ink: ink, cancelled: flags & Flag.cancelled != 0, points: samples,
                      path: StrokePath(controlPoints: controls, creationTime: creationTime),
                      transform: transform, mask: mask, randomSeed: seed)
    }

    static func writeTransform(_ t: AffineTransform, to w: inout DrawingByteWriter) {
        for v in [t.a, t.b, t.c, t.d, t.tx, t.ty] { w.f64(v) }
    }

    static func readTransform(from r: inout DrawingByteReader) throws(DrawingFormatError) -> AffineTransform {
        AffineTransform(a: try r.f64("transform a"), b: try r.f64("transform b"), c: try r.f64("transform c"),
                        d: try r.f64("transform d"), tx: try r.f64("transform tx"), ty: try r.f64("transform ty"))
    }
}

extension Ink.InkType {
    /// The inks format version 1 names; the others came with version 2.
    var isInVersion1: Bool { [.pen, .pencil, .marker, .eraser].contains(self) }
}
