/// The point lists of a stroke record: every field packed against the same
/// field of the point before (docs/drawing-format.md, "Samples", "Control points").
extension StrokeRecord {
    static func writeSamples(_ samples: [StrokeSample], creationTime: UInt64, to w: inout DrawingByteWriter) {
        w.varint(UInt64(samples.count))
        var time = creationTime
        var p = StrokeSample(time: 0, x: 0, y: 0, force: 0, azimuth: 0, altitude: 0, roll: 0, size: 0, opacity: 0, estimated: [])
        for s in samples {
            w.zigzag(Int64(bitPattern: s.time &- time))
            time = s.time
            w.packed(s.x, previous: p.x)
            w.packed(s.y, previous: p.y)
            w.packed(s.force, previous: p.force)
            w.packed(s.azimuth, previous: p.azimuth)
            w.packed(s.altitude, previous: p.altitude)
            w.packed(s.roll, previous: p.roll)
            w.packed(s.size, previous: p.size)
            w.packed(s.opacity, previous: p.opacity)
            w.u8(s.estimated.rawValue)
            p = s
        }
    }

    static func readSamples(creationTime: UInt64, from r: inout DrawingByteReader) throws(DrawingFormatError) -> [StrokeSample] {
        let count = try r.count("sample count", minimumSize: 10)
        var samples: [StrokeSample] = []
        samples.reserveCapacity(count)
        var p = StrokeSample(time: creationTime, x: 0, y: 0, force: 0, azimuth: 0, altitude: 0, roll: 0, size: 0, opacity: 0,
                             estimated: [])
        for _ in 0..<count {
            let time = p.time &+ UInt64(bitPattern: try r.zigzag("sample time"))
            let x = try r.packed(previous: p.x, "sample x"), y = try r.packed(previous: p.y, "sample y")
            let force = try r.packed(previous: p.force, "sample force")
            let azimuth = try r.packed(previous: p.azimuth, "sample azimuth")
            let altitude = try r.packed(previous: p.altitude, "sample altitude")
            let roll = try r.packed(previous: p.roll, "sample roll")
            let size = try r.packed(previous: p.size, "sample size")
            let opacity = try r.packed(previous: p.opacity, "sample opacity")
            let estimated = try r.u8("sample estimated")
            p = StrokeSample(time: time, x: x, y: y, force: force, azimuth: azimuth, altitude: altitude, roll: roll,
                             size: size, opacity: opacity, estimated: SampleProperties(rawValue: estimated))
            samples.append(p)
        }
        return samples
    }

    /// What control point `i` is packed against: the sample at the same index, whose values the
    /// fitted path passes through (azimuth and time offset are the sample's exactly), or the
    /// previous control point where there is no such sample (docs/drawing-format.md).
    static func controlReference(_ i: Int, samples: [StrokeSample], creationTime: UInt64,
                                 previous: StrokePoint) -> StrokePoint {
        guard i < samples.count else { return previous }
        let s = samples[i]
        let offset = s.time >= creationTime ? Double(s.time - creationTime) / 1_000_000
                                            : -Double(creationTime - s.time) / 1_000_000
        return StrokePoint(x: s.x, y: s.y, timeOffset: offset, size: s.size, opacity: s.opacity,
                           azimuth: s.azimuth, force: s.force, altitude: s.altitude, roll: s.roll)
    }

    static func writeControlPoints(_ points: [StrokePoint], samples: [StrokeSample], creationTime: UInt64,
                                   version: UInt16, to w: inout DrawingByteWriter) {
        w.varint(UInt64(points.count))
        var previous = StrokePoint(x: 0, y: 0, timeOffset: 0, size: 0, opacity: 0, azimuth: 0, force: 0, altitude: 0)
        for (i, c) in points.enumerated() {
            let p = controlReference(i, samples: samples, creationTime: creationTime, previous: previous)
            w.packed(c.x, previous: p.x)
            w.packed(c.y, previous: p.y)
            w.packed(c.timeOffset, previous: p.timeOffset)
            w.packed(c.size, previous: p.size)
            w.packed(c.opacity, previous: p.opacity)
            w.packed(c.azimuth, previous: p.azimuth)
            w.packed(c.force, previous: p.force)
            w.packed(c.altitude, previous: p.altitude)
            // Version 2: the nib's height, against this point's own size (equal for a round nib: one byte).
            if version >= 2 { w.packed(c.height, previous: c.size) }
            // Version 3: the barrel roll, against the reference's (the sample's: one byte when equal).
            if version >= 3 { w.packed(c.roll, previous: p.roll) }
            previous = c
        }
    }

    /// Version 1 has no height: its nibs are round (height = size), as version 1 drew them.
    /// Versions 1 and 2 have no roll: 0, so their shaped nibs stay at the ink's angle, as they drew.
    static func readControlPoints(samples: [StrokeSample], creationTime: UInt64, version: UInt16,
                                  from r: inout DrawingByteReader) throws(DrawingFormatError) -> [StrokePoint] {
        let count = try r.count("control point count", minimumSize: version >= 3 ? 10 : version >= 2 ? 9 : 8)
        var points: [StrokePoint] = []
        points.reserveCapacity(count)
        var previous = StrokePoint(x: 0, y: 0, timeOffset: 0, size: 0, opacity: 0, azimuth: 0, force: 0, altitude: 0)
        for i in 0..<count {
            let p = controlReference(i, samples: samples, creationTime: creationTime, previous: previous)
            previous = StrokePoint(
                x: try r.packed(previous: p.x, "control x"), y: try r.packed(previous: p.y, "control y"),
                timeOffset: try r.packed(previous: p.timeOffset, "control time offset"),
                size: try r.packed(previous: p.size, "control size"),
                opacity: try r.packed(previous: p.opacity, "control opacity"),
                azimuth: try r.packed(previous: p.azimuth, "control azimuth"),
                force: try r.packed(previous: p.force, "control force"),
                altitude: try r.packed(previous: p.altitude, "control altitude"))
            if version >= 2 { previous.height = try r.packed(previous: previous.size, "control height") }
            if version >= 3 { previous.roll = try r.packed(previous: p.roll, "control roll") }
            points.append(previous)
        }
        return points
    }

    static func writeMask(_ mask: StrokeMask, to w: inout DrawingByteWriter) {
        if let clip = mask.clip {
            w.f64(clip.lowerBound)
            w.f64(clip.upperBound)
        }
        w.varint(UInt64(mask.erased.count))
        for region in mask.erased {
            w.f64(region.radius)
            writeTransform(region.frame, to: &w)
            w.varint(UInt64(region.points.count))
            var previous = DrawingPoint(x: 0, y: 0)
            for p in region.points {
                w.packed(p.x, previous: previous.x)
                w.packed(p.y, previous: previous.y)
                previous = p
            }
        }
    }

    static func readMask(hasClip: Bool, from r: inout DrawingByteReader) throws(DrawingFormatError) -> StrokeMask {
        var mask = StrokeMask()
        if hasClip {
            let lo = try r.f64("clip start"), hi = try r.f64("clip end")
            guard lo <= hi else { throw r.corrupt("clip \(lo)…\(hi) is not a range") }
            mask.clip = lo...hi
        }
        let count = try r.count("erased region count", minimumSize: 8 + 48 + 1)
        for _ in 0..<count {
            let radius = try r.f64("region radius")
            let frame = try readTransform(from: &r)
            let n = try r.count("region point count", minimumSize: 2)
            var points: [DrawingPoint] = []
            points.reserveCapacity(n)
            var previous = DrawingPoint(x: 0, y: 0)
            for _ in 0..<n {
                previous = DrawingPoint(x: try r.packed(previous: previous.x, "region x"),
                                        y: try r.packed(previous: previous.y, "region y"))
                points.append(previous)
            }
            mask.erased.append(ErasedRegion(points: points, radius: radius, frame: frame))
        }
        return mask
    }
}
