import PenInput

/// The event lines of a `libinput record` file, read straight from its bytes.
///
/// A recording is almost all lines like `    - [  0,  12000,   3,   0,   15237] # EV_ABS / ABS_X`
/// under `  - evdev:`. Building a YAML node per number costs ~15 µs an event even optimised; this
/// reads such blocks as bytes and blanks them (keeping every newline, so line numbers stay) before
/// Yams sees the rest. A block with any line not in exactly that form is left whole to Yams.
struct RecordEventLines {
    /// Events per `- evdev:` line that had its block taken out, with each event's line.
    private(set) var blocks: [Int: [(event: EvdevEvent, line: Int)]] = [:]
    private(set) var eventCount = 0

    /// Takes out every well-formed event block from `text`, which it blanks in place.
    mutating func extract(from text: inout [UInt8]) {
        let count = text.count
        text.withUnsafeMutableBufferPointer { buffer in
            guard let bytes = buffer.baseAddress else { return }
            var lineStarts: [Int] = []
            var start = 0
            while start < count {
                lineStarts.append(start)
                start = TraceText.lineEnd(UnsafePointer(bytes), from: start, count: count) + 1
            }
            func lineBounds(_ index: Int) -> (Int, Int) {
                let s = lineStarts[index]
                var e = index + 1 < lineStarts.count ? lineStarts[index + 1] - 1
                    : TraceText.lineEnd(UnsafePointer(bytes), from: s, count: count)
                if e > s && bytes[e - 1] == 0x0D { e -= 1 }
                return (s, e)
            }
            var index = 0
            while index < lineStarts.count {
                let (s, e) = lineBounds(index)
                guard let headerIndent = Self.frameHeaderIndent(bytes, s, e) else {
                    index += 1
                    continue
                }
                var events: [(event: EvdevEvent, line: Int)] = []
                var blanked: [Int] = []
                var next = index + 1
                var wellFormed = true
                while next < lineStarts.count {
                    let (ls, le) = lineBounds(next)
                    var i = ls
                    while i < le && bytes[i] == 0x20 { i += 1 }
                    if i == le || bytes[i] == UInt8(ascii: "#") {
                        next += 1
                        continue
                    }
                    if i - ls <= headerIndent { break }
                    guard let event = Self.eventLine(bytes, i, le) else {
                        wellFormed = false
                        break
                    }
                    events.append((event, next + 1))
                    blanked.append(next)
                    next += 1
                }
                if wellFormed && !events.isEmpty {
                    for line in blanked {
                        let (ls, le) = lineBounds(line)
                        for k in ls..<le { bytes[k] = 0x20 }
                    }
                    blocks[index + 1] = events
                    eventCount += events.count
                }
                index = next
            }
        }
    }

    /// The indentation of a line that is exactly `- evdev:` (with an optional comment), else nil.
    private static func frameHeaderIndent(_ bytes: UnsafeMutablePointer<UInt8>, _ start: Int, _ end: Int) -> Int? {
        var i = start
        while i < end && bytes[i] == 0x20 { i += 1 }
        let indent = i - start
        for c in "- evdev:".utf8 {
            guard i < end && bytes[i] == c else { return nil }
            i += 1
        }
        while i < end && bytes[i] == 0x20 { i += 1 }
        return i == end || bytes[i] == UInt8(ascii: "#") ? indent : nil
    }

    /// `- [sec, usec, type, code, value]` with optional spaces and comment, else nil.
    private static func eventLine(_ bytes: UnsafeMutablePointer<UInt8>, _ start: Int, _ end: Int) -> EvdevEvent? {
        var i = start
        func skipSpaces() { while i < end && bytes[i] == 0x20 { i += 1 } }
        func expect(_ c: UInt8) -> Bool {
            guard i < end && bytes[i] == c else { return false }
            i += 1
            return true
        }
        func number(negativeAllowed: Bool) -> Int64? {
            skipSpaces()
            let negative = negativeAllowed && i < end && bytes[i] == UInt8(ascii: "-")
            if negative { i += 1 }
            let digitsStart = i
            var value: Int64 = 0
            while i < end, bytes[i] >= UInt8(ascii: "0"), bytes[i] <= UInt8(ascii: "9") {
                value = value * 10 + Int64(bytes[i] - UInt8(ascii: "0"))
                i += 1
                if i - digitsStart > 10 { return nil }
            }
            guard i > digitsStart else { return nil }
            skipSpaces()
            return negative ? -value : value
        }
        guard expect(UInt8(ascii: "-")), expect(0x20) else { return nil }
        skipSpaces()
        guard expect(UInt8(ascii: "[")) else { return nil }
        var fields: [Int64] = []
        for k in 0..<5 {
            guard let n = number(negativeAllowed: k == 4) else { return nil }
            fields.append(n)
            guard expect(UInt8(ascii: k == 4 ? "]" : ",")) else { return nil }
        }
        skipSpaces()
        guard i == end || bytes[i] == UInt8(ascii: "#") else { return nil }
        // Values the Yams path would reject go to it instead, so both paths give the same errors.
        guard fields[0] <= Int64(Int32.max), fields[1] < 1_000_000, fields[2] <= 0xFFFF, fields[3] <= 0xFFFF,
              fields[4] >= Int64(Int32.min), fields[4] <= Int64(Int32.max) else { return nil }
        return EvdevEvent(time: UInt64(fields[0]) * 1_000_000 + UInt64(fields[1]), type: UInt16(fields[2]),
                          code: UInt16(fields[3]), value: Int32(fields[4]))
    }
}
