/// Reads evemu recordings (EVEMU 1.1 to 1.3, as written by evemu-record and evemu-describe):
///
///     # EVEMU 1.3                              format version; other `#` lines are comments
///     N: <name>
///     I: <bustype> <vendor> <product> <version>  (hex)
///     P: <property bitmask bytes, hex>           (repeated, 8 bytes a line)
///     B: <type> <code bitmask bytes, hex>        (repeated per type)
///     A: <code> <min> <max> <fuzz> <flat> [<resolution>]  (code hex, rest decimal; 1.1 has no resolution)
///     L: / S: <code> <state>                     (LED and switch state: read, not kept)
///     E: <sec>.<usec> <type> <code> <value>      (type and code hex, value decimal)
///
/// One device per file. `B: 00` is the kernel's event-type mask: the types follow from the
/// codes, so it is checked but not kept (EV_SYN is always implied).
package enum EvemuReader {
    package static func parse(_ bytes: [UInt8], file: String) throws -> Trace {
        try bytes.withUnsafeBufferPointer { try parse($0, file: file) }
    }

    package static func parse(_ buffer: UnsafeBufferPointer<UInt8>, file: String) throws -> Trace {
        try TraceText.validate(buffer, file: file)
        var parser = EvemuParser(file: file)
        if let bytes = buffer.baseAddress {
            var start = 0
            var line = 0
            while start < buffer.count {
                line += 1
                let end = TraceText.lineEnd(bytes, from: start, count: buffer.count)
                var contentEnd = end
                if contentEnd > start && bytes[contentEnd - 1] == 0x0D { contentEnd -= 1 }
                try parser.consume(bytes, from: start, to: contentEnd, line: line)
                start = end + 1
            }
        }
        return try parser.finish()
    }
}

/// The line-by-line state of one evemu parse.
private struct EvemuParser {
    let file: String
    private var name: String?
    private var id: (bustype: UInt16, vendor: UInt16, product: UInt16, version: UInt16)?
    private var properties = Set<UInt16>()
    private var codes = [UInt16: Set<UInt16>]()
    private var absInfo = [UInt16: AbsInfo]()
    /// Bytes of bitmask read so far, per event type (index EV_MAX + 1 is the property mask).
    private var maskBytesRead = [Int](repeating: 0, count: Int(EventCodeLimits.maxType) + 2)
    private var absDeclaredOnLine = 0
    private var sawDescription = false
    private var sawVersion = false
    private var description: DeviceDescription?
    private var checker: EventStreamChecker?
    private var events: [EvdevEvent] = []

    private static func isLineKind(_ kind: UInt8) -> Bool {
        switch kind {
        case UInt8(ascii: "N"), UInt8(ascii: "I"), UInt8(ascii: "P"), UInt8(ascii: "B"),
             UInt8(ascii: "A"), UInt8(ascii: "L"), UInt8(ascii: "S"), UInt8(ascii: "E"): true
        default: false
        }
    }

    init(file: String) { self.file = file }

    private func error(_ line: Int, _ message: String) -> TraceError {
        TraceError(file: file, line: line, message: message)
    }

    mutating func consume(_ bytes: UnsafePointer<UInt8>, from start: Int, to end: Int, line: Int) throws {
        var i = start
        while i < end && (bytes[i] == 0x20 || bytes[i] == 0x09) { i += 1 }
        guard i < end else { return }
        if bytes[i] == UInt8(ascii: "#") {
            try readComment(ByteFields(bytes, from: i + 1, to: end), line: line)
            return
        }
        let hasPrefix = i + 1 < end && bytes[i + 1] == UInt8(ascii: ":")
            && (i + 2 == end || bytes[i + 2] == 0x20 || bytes[i + 2] == 0x09)
        guard hasPrefix else {
            throw error(line, "unrecognised line: expected `N:`, `I:`, `P:`, `B:`, `A:`, `L:`, `S:`, `E:` or a `#` comment")
        }
        var fields = ByteFields(bytes, from: i + 2, to: end)
        let kind = bytes[i]
        guard Self.isLineKind(kind) else {
            throw error(line, "unrecognised line: expected `N:`, `I:`, `P:`, `B:`, `A:`, `L:`, `S:`, `E:` or a `#` comment")
        }
        if kind == UInt8(ascii: "E") {
            try readEvent(&fields, line: line)
            return
        }
        guard checker == nil else {
            throw error(line, "device description line after the first event: an evemu file holds one device")
        }
        sawDescription = true
        switch kind {
        case UInt8(ascii: "N"): try readName(bytes, from: i + 2, to: end, line: line)
        case UInt8(ascii: "I"): try readID(&fields, line: line)
        case UInt8(ascii: "P"): try readMask(&fields, slot: Int(EventCodeLimits.maxType) + 1, line: line)
        case UInt8(ascii: "B"): try readTypeMask(&fields, line: line)
        case UInt8(ascii: "A"): try readAbsInfo(&fields, line: line)
        case UInt8(ascii: "L"), UInt8(ascii: "S"): try readState(&fields, line: line)
        default:
            throw error(line, "unrecognised line: expected `N:`, `I:`, `P:`, `B:`, `A:`, `L:`, `S:`, `E:` or a `#` comment")
        }
    }

    /// `# EVEMU 1.3` names the format version; every other comment is ignored.
    private mutating func readComment(_ fields: ByteFields, line: Int) throws {
        var fields = fields
        guard !sawVersion, !sawDescription, let first = fields.next(), fields.text(first) == "EVEMU" else { return }
        sawVersion = true
        guard let version = fields.next() else {
            throw error(line, "`# EVEMU` header without a version")
        }
        let text = fields.text(version)
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, let major = Int(parts[0]), Int(parts[1]) != nil else {
            throw error(line, "malformed EVEMU version `\(text)`: expected MAJOR.MINOR")
        }
        guard major == 1 else {
            throw error(line, "unsupported EVEMU version \(text): penkit reads EVEMU 1.x")
        }
    }

    private mutating func readName(_ bytes: UnsafePointer<UInt8>, from start: Int, to end: Int, line: Int) throws {
        guard name == nil else {
            throw error(line, "second `N:` line: an evemu file holds one device")
        }
        var s = start
        var e = end
        while s < e && (bytes[s] == 0x20 || bytes[s] == 0x09) { s += 1 }
        while e > s && (bytes[e - 1] == 0x20 || bytes[e - 1] == 0x09) { e -= 1 }
        name = String(decoding: UnsafeBufferPointer(start: bytes + s, count: e - s), as: UTF8.self)
    }

    private mutating func readID(_ fields: inout ByteFields, line: Int) throws {
        guard fields.remainingCount() == 4 else {
            throw error(line, "`I:` needs 4 hex fields (bustype vendor product version), found \(fields.remainingCount())")
        }
        var values: [UInt16] = []
        for _ in 0..<4 {
            let field = fields.next()!
            guard let value = fields.hex(field, max: 0xFFFF) else {
                throw error(line, "`I:` field `\(fields.text(field))` is not a 16-bit hex number")
            }
            values.append(UInt16(value))
        }
        id = (values[0], values[1], values[2], values[3])
    }

    private mutating func readTypeMask(_ fields: inout ByteFields, line: Int) throws {
        guard let typeField = fields.next() else {
            throw error(line, "`B:` needs an event type and bitmask bytes")
        }
        guard let type = fields.hex(typeField, max: UInt64(EventCodeLimits.maxType)) else {
            throw error(line, "`B:` event type `\(fields.text(typeField))` is not hex in 00...\(String(EventCodeLimits.maxType, radix: 16))")
        }
        if UInt16(type) == EventCodeLimits.abs { absDeclaredOnLine = line }
        try readMask(&fields, slot: Int(type), line: line)
    }

    /// Appends bitmask bytes to the mask in `slot` (an event type, or the property mask).
    private mutating func readMask(_ fields: inout ByteFields, slot: Int, line: Int) throws {
        let isProperties = slot > Int(EventCodeLimits.maxType)
        let label = isProperties ? "`P:`" : "`B:`"
        var count = 0
        while let field = fields.next() {
            guard let byte = fields.hex(field, max: 0xFF), field.count <= 2 else {
                throw error(line, "\(label) bitmask byte `\(fields.text(field))` is not a hex byte")
            }
            let offset = maskBytesRead[slot]
            maskBytesRead[slot] += 1
            count += 1
            guard byte != 0 else { continue }
            for bit in 0..<8 where byte & (1 << bit) != 0 {
                let index = offset * 8 + bit
                if isProperties {
                    guard index <= Int(EventCodeLimits.maxProperty) else {
                        throw error(line, "unknown property \(index): above INPUT_PROP_MAX (\(EventCodeLimits.maxProperty))")
                    }
                    properties.insert(UInt16(index))
                } else {
                    let type = UInt16(slot)
                    if type == EventCodeLimits.syn {
                        // The event-type mask: a set bit must name a real type.
                        guard index <= Int(EventCodeLimits.maxType) else {
                            throw error(line, "unknown event type \(index) in the `B: 00` type mask: above EV_MAX")
                        }
                        continue
                    }
                    guard index <= Int(UInt16.max) else {
                        throw error(line, "bitmask for \(EventCodeLimits.typeName(type)) is too long")
                    }
                    try EventStreamChecker.checkCode(type: type, code: UInt16(index), file: file, line: line)
                    codes[type, default: []].insert(UInt16(index))
                }
            }
        }
        guard count > 0 else {
            throw error(line, "\(label) line without bitmask bytes")
        }
    }

    private mutating func readAbsInfo(_ fields: inout ByteFields, line: Int) throws {
        let count = fields.remainingCount()
        guard count == 5 || count == 6 else {
            throw error(line, "`A:` needs code, min, max, fuzz, flat and (from EVEMU 1.2) resolution; found \(count) fields")
        }
        let codeField = fields.next()!
        guard let code = fields.hex(codeField, max: UInt64(EventCodeLimits.maxAbs)) else {
            throw error(line, "`A:` axis code `\(fields.text(codeField))` is not hex in 00...\(String(EventCodeLimits.maxAbs, radix: 16)) (ABS_MAX)")
        }
        var numbers: [Int32] = []
        while let field = fields.next() {
            guard let value = fields.int32(field) else {
                throw error(line, "`A:` value `\(fields.text(field))` is not a 32-bit decimal integer")
            }
            numbers.append(value)
        }
        guard numbers[0] <= numbers[1] else {
            throw error(line, "`A:` axis \(EventCodeLimits.hex(UInt16(code))) has minimum \(numbers[0]) above maximum \(numbers[1])")
        }
        let axis = UInt16(code)
        absInfo[axis] = AbsInfo(minimum: numbers[0], maximum: numbers[1], fuzz: numbers[2], flat: numbers[3],
                                resolution: numbers.count > 4 ? numbers[4] : 0)
        codes[EventCodeLimits.abs, default: []].insert(axis)
    }

    /// LED and switch states matter for replaying into a kernel device, not for decoding.
    private mutating func readState(_ fields: inout ByteFields, line: Int) throws {
        guard fields.remainingCount() == 2, let code = fields.next(), fields.hex(code, max: 0xFFFF) != nil,
              let state = fields.next(), fields.int32(state) != nil else {
            throw error(line, "LED/switch state line needs a hex code and a decimal state")
        }
    }

    private mutating func readEvent(_ fields: inout ByteFields, line: Int) throws {
        if checker == nil { try startEvents(line: line) }
        let (f, count) = fields.next4()
        guard count == 4 else {
            throw error(line, "`E:` needs 4 fields (sec.usec type code value), found \(count)")
        }
        guard let time = parseTime(fields, f.0) else {
            throw error(line, "`E:` time `\(fields.text(f.0))` is not SECONDS.MICROSECONDS")
        }
        guard let type = fields.hex(f.1, max: 0xFFFF) else {
            throw error(line, "`E:` event type `\(fields.text(f.1))` is not a 16-bit hex number")
        }
        guard let code = fields.hex(f.2, max: 0xFFFF) else {
            throw error(line, "`E:` event code `\(fields.text(f.2))` is not a 16-bit hex number")
        }
        guard let value = fields.int32(f.3) else {
            throw error(line, "`E:` value `\(fields.text(f.3))` is not a 32-bit decimal integer")
        }
        let event = EvdevEvent(time: time, type: UInt16(type), code: UInt16(code), value: value)
        try checker!.check(event, line: line)
        events.append(event)
    }

    /// `sec.usec` as evemu prints it (`%lu.%06u`): up to six digits of microseconds.
    private func parseTime(_ fields: ByteFields, _ range: Range<Int>) -> UInt64? {
        var dot = range.lowerBound
        while dot < range.upperBound && fields.bytes[dot] != UInt8(ascii: ".") { dot += 1 }
        guard dot < range.upperBound else { return nil }
        let micros = dot + 1..<range.upperBound
        guard micros.count <= 6,
              let sec = fields.unsigned(range.lowerBound..<dot, max: UInt64.max / 1_000_000 - 1),
              let usec = fields.unsigned(micros, max: 999_999) else { return nil }
        return sec * 1_000_000 + usec
    }

    /// The description is complete at the first event: check it once, then check each event against it.
    private mutating func startEvents(line: Int) throws {
        guard sawDescription else {
            throw error(line, "event before any device description (`N:`, `I:`, `B:`, `A:` lines): penkit needs the device's axes")
        }
        let description = makeDescription()
        try EventStreamChecker.checkAbsInfo(of: description, file: file, line: absDeclaredOnLine)
        self.description = description
        checker = EventStreamChecker(file: file, description: description)
    }

    private func makeDescription() -> DeviceDescription {
        DeviceDescription(name: name ?? "", bustype: id?.bustype ?? 0, vendor: id?.vendor ?? 0,
                          product: id?.product ?? 0, version: id?.version ?? 0,
                          properties: properties, codes: codes, absInfo: absInfo)
    }

    mutating func finish() throws -> Trace {
        if description == nil {
            guard sawDescription else {
                throw error(0, "no device description (`N:`, `I:`, `B:`, `A:` lines): not an evemu recording")
            }
            let description = makeDescription()
            try EventStreamChecker.checkAbsInfo(of: description, file: file, line: absDeclaredOnLine)
            self.description = description
        }
        return Trace(devices: [Trace.Device(description: description!, events: events)])
    }
}
