import Testing
@testable import PenInput

/// Every bundled trace, read by EvemuReader, against facts taken from the file by other means:
/// its `E:` lines counted as text, and the `#` header evemu wrote from the kernel's own answers.
@Suite struct EvemuReaderTests {
    @Test func everyBundledTraceIsFound() {
        #expect(TraceFixtures.evemuTraces.count == 15)
    }

    @Test(arguments: TraceFixtures.evemuTraces)
    func eventCountsMatchTheEventLines(name: String) throws {
        let path = TraceFixtures.trace(name)
        let lines = try TraceFixtures.lines(path)
        let eventLines = lines.filter { $0.hasPrefix("E: ") }
        let trace = try TraceFile.load(path: path)
        try #require(trace.devices.count == 1)
        let events = trace.devices[0].events
        #expect(events.count == eventLines.count)
        #expect(events.filter { $0.type == 3 }.count == eventLines.filter { $0.hasPrefix("E: ") && $0.split(separator: " ")[2] == "0003" }.count)
        // First and last events as text, compared field by field.
        for (event, line) in [(events.first!, eventLines.first!), (events.last!, eventLines.last!)] {
            let f = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            let time = f[1].split(separator: ".")
            #expect(event.time == UInt64(time[0])! * 1_000_000 + UInt64(time[1])!)
            #expect(event.type == UInt16(f[2], radix: 16)!)
            #expect(event.code == UInt16(f[3], radix: 16)!)
            #expect(event.value == Int32(f[4])!)
        }
    }

    /// The `#` header lists "Event type T" / "Event code C" with Min/Max/Fuzz/Flat for axes; the
    /// reader uses the `B:` and `A:` lines instead, so the two must agree (resolution aside: the
    /// header says 0 where the `A:` lines had it filled in, see traces/SOURCES.md).
    @Test(arguments: TraceFixtures.evemuTraces)
    func descriptionMatchesTheCommentHeader(name: String) throws {
        let path = TraceFixtures.trace(name)
        let header = HeaderComments(try TraceFixtures.lines(path))
        let device = try TraceFile.load(path: path).devices[0].description
        #expect(device.name == header.name)
        for (type, codes) in header.codes where type != 0 {
            #expect(device.codes[type] == codes, "type \(type)")
        }
        #expect(Set(device.codes.keys) == Set(header.codes.keys.filter { $0 != 0 && !header.codes[$0]!.isEmpty }))
        for (code, range) in header.ranges {
            let info = try #require(device.absInfo[code])
            #expect([info.minimum, info.maximum, info.fuzz, info.flat] == range, "axis \(code)")
        }
        #expect(Set(device.absInfo.keys) == Set(header.ranges.keys))
    }

    @Test func cintiqIdentityPropertiesAndResolution() throws {
        // From the file: `I: 0003 056a 005b 0209`, `P: 02 ...` (INPUT_PROP_DIRECT),
        // `A: 00 0 95840 4 0 200`, `A: 02 -900 899 0 0 287`.
        let device = try TraceFile.load(path: TraceFixtures.trace("wacom-cintiq-22hdt-pen.evemu")).devices[0].description
        #expect(device.bustype == 0x03 && device.vendor == 0x56a && device.product == 0x5b && device.version == 0x209)
        #expect(device.properties == [1])
        #expect(device.absInfo[0] == AbsInfo(minimum: 0, maximum: 95840, fuzz: 4, flat: 0, resolution: 200))
        #expect(device.absInfo[2] == AbsInfo(minimum: -900, maximum: 899, fuzz: 0, flat: 0, resolution: 287))
        #expect(device.has(type: 1, code: 0x140))  // BTN_TOOL_PEN
        #expect(device.has(type: 4, code: 0))  // MSC_SERIAL
    }

    @Test func intuosPadValuesKeepTheirSign() throws {
        // `E: 1337931263.406504 0004 0000 -1`: a negative MSC_SERIAL value.
        let events = try TraceFile.load(path: TraceFixtures.trace("wacom-intuos4-6x9-pad-buttons.evemu")).devices[0].events
        #expect(events[2] == EvdevEvent(time: 1_337_931_263_406_504, type: 4, code: 0, value: -1))
    }

    @Test func evemu11FiveFieldAbsLinesHaveNoResolution() throws {
        let text = """
        # EVEMU 1.1
        N: Old Tablet
        I: 0003 056a 00b9 0104
        B: 00 0b 00 00 00 00 00 00 00
        B: 03 03 00 00 00 00 00 00 00
        A: 00 0 44704 4 0
        A: 01 0 27940 4 0
        E: 0.000001 0003 0000 100
        E: 0.000001 0000 0000 0000
        """
        let device = try TraceFile.parse(bytes: Array(text.utf8), name: "old.evemu").devices[0]
        #expect(device.description.absInfo[0] == AbsInfo(minimum: 0, maximum: 44704, fuzz: 4, flat: 0, resolution: 0))
        #expect(device.events.map(\.value) == [100, 0])
    }

    @Test func crlfLineEndingsStateLinesAndTrailingCommentsAreAccepted() throws {
        let text = "# EVEMU 1.3\r\nN: T\r\nB: 03 01\r\nA: 00 0 10 0 0 1\r\nL: 00 1\r\nS: 01 0\r\nE: 1.000002 0003 0000 0007\t# EV_ABS / ABS_X 7\r\n"
        let events = try TraceFile.parse(bytes: Array(text.utf8), name: "crlf.evemu").devices[0].events
        #expect(events == [EvdevEvent(time: 1_000_002, type: 3, code: 0, value: 7)])
    }
}

/// What evemu wrote in the `#` header: the device name and, per event type, the codes and axis ranges.
struct HeaderComments {
    var name = ""
    var codes: [UInt16: Set<UInt16>] = [:]
    var ranges: [UInt16: [Int32]] = [:]

    init(_ lines: [Substring]) {
        var type: UInt16 = 0
        var code: UInt16 = 0
        for line in lines where line.hasPrefix("#") {
            let words = line.dropFirst().split(separator: " ")
            if line.hasPrefix("# Input device name: ") {
                name = String(line.dropFirst("# Input device name: ".count).dropFirst().dropLast())
            } else if words.count >= 3 && words[0] == "Event" && words[1] == "type" {
                type = UInt16(words[2])!
                codes[type] = codes[type] ?? []
            } else if words.count >= 3 && words[0] == "Event" && words[1] == "code" {
                code = UInt16(words[2])!
                codes[type]!.insert(code)
            } else if type == 3 && words.count == 2, let value = Int32(words[1]),
                      ["Min", "Max", "Fuzz", "Flat"].contains(words[0]) {
                ranges[code, default: []].append(value)
            }
        }
    }
}

@Test(arguments: TraceFixtures.evemuTraces)
func bundledTracesKeepTheTraceInvariants(name: String) throws {
    #expect(TraceInvariants.firstViolation(in: try TraceFile.load(path: TraceFixtures.trace(name))) == nil)
}

@Test func invariantsCatchABackwardsTrace() {
    let device = Trace.Device(description: DeviceDescription(name: "x"), events: [
        EvdevEvent(time: 2, type: 0, code: 0, value: 0), EvdevEvent(time: 1, type: 0, code: 0, value: 0),
    ])
    #expect(TraceInvariants.firstViolation(in: Trace(devices: [device])) == "device 0: time goes backwards at 1")
}
