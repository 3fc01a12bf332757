import Testing
@testable import PenInput
@testable import PenInputRecord

/// The YAML fixtures hold real events from bundled evemu traces, written in `libinput record`
/// layout by Tests/Fixtures/libinput-record/make-from-evemu.py: both readers must agree.
@Suite struct LibinputRecordReaderTests {
    /// The evemu trace with times made relative to `offset`, as `libinput record` writes them.
    private func evemuDevice(_ name: String, frames: Int? = nil, offset: UInt64? = nil) throws -> Trace.Device {
        var device = try TraceFile.load(path: TraceFixtures.trace(name), readers: .all).devices[0]
        if let frames {
            let ends = device.events.indices.filter { device.events[$0].type == 0 && device.events[$0].code == 0 }
            device.events = Array(device.events[...ends[frames - 1]])
        }
        let base = offset ?? device.events[0].time
        device.events = device.events.map { EvdevEvent(time: $0.time - base, type: $0.type, code: $0.code, value: $0.value) }
        return device
    }

    @Test func singleDeviceMatchesTheEvemuReader() throws {
        let trace = try TraceFile.load(path: TraceFixtures.fixture("libinput-record/intuos4-stylus-tap.yml"), readers: .all)
        let expected = try evemuDevice("wacom-intuos4-6x9-stylus-tap.evemu")
        try #require(trace.devices.count == 1)
        #expect(trace.devices[0].description == expected.description)
        #expect(trace.devices[0].events == expected.events)
        #expect(trace.devices[0].events.count == 396)  // `grep -c '^    - \['` on the fixture
    }

    @Test func twoDevicesShareOneTimeBase() throws {
        let trace = try TraceFile.load(path: TraceFixtures.fixture("libinput-record/two-devices.yml"), readers: .all)
        try #require(trace.devices.count == 2)
        // The Genius recording is the older one, so its first event is time 0 for both devices.
        let genius = try TraceFile.load(path: TraceFixtures.trace("genius-easypen-i405x.evemu"), readers: .all).devices[0]
        let offset = genius.events[0].time
        let expected = [try evemuDevice("wacom-dth2242-pen.evemu", frames: 40, offset: offset),
                        try evemuDevice("genius-easypen-i405x.evemu", frames: 40, offset: offset)]
        for (got, want) in zip(trace.devices, expected) {
            #expect(got.description == want.description)
            #expect(got.events == want.events)
        }
        #expect(trace.devices.map(\.events.count).reduce(0, +) == 286)  // `grep -c '^    - \['` on the fixture
        #expect(trace.devices[0].description.name == "Wacom DTH2242 Pen")
        #expect(trace.devices[1].description.absInfo[0] == AbsInfo(minimum: 0, maximum: 14080, resolution: 101))
    }

    @Test func unknownKeysAndLibinputEventsAreIgnored() throws {
        let text = """
        # libinput record
        version: 1
        ndevices: 1
        future_key: {anything: [1, 2, 3]}
        devices:
        - node: /dev/input/event3
          evdev:
            name: "Pen"
            id: [3, 1386, 185, 260]
            codes:
              1: [320]
              3: [0]
            absinfo:
              0: [0, 100, 0, 0, 10]
            properties: []
            unknown: 7
          hid: [0x05, 0x0d]
          events:
          - evdev:
            - [  0,  5000,   3,   0,    42]
            - [  0,  5000,   0,   0,     0]
          - evdev: [[0, 6000, 3, 0, 43], [0, 6000, 0, 0, 0]]
          - evdev:
            - - 0
              - 7000
              - 3
              - 0
              - 44
          - libinput:
            - {time: 0.005000, type: TABLET_TOOL_AXIS, point: [ 4.20,  0.00]}
          - {type: DEVICE_ADDED, seat: seat0, logical_seat: default}
        """
        let trace = try TraceFile.parse(bytes: Array(text.utf8), name: "inline.yml", readers: .all)
        #expect(trace.devices[0].description.codes == [1: [320], 3: [0]])
        // Frames in libinput's own layout, in flow style and in block style all read alike.
        #expect(trace.devices[0].events == [EvdevEvent(time: 5000, type: 3, code: 0, value: 42),
                                            EvdevEvent(time: 5000, type: 0, code: 0, value: 0),
                                            EvdevEvent(time: 6000, type: 3, code: 0, value: 43),
                                            EvdevEvent(time: 6000, type: 0, code: 0, value: 0),
                                            EvdevEvent(time: 7000, type: 3, code: 0, value: 44)])
    }

    @Test func formatIsDetectedFromContent() throws {
        let yaml = Array("# libinput record\nversion: 1\n".utf8)
        let evemu = Array("# EVEMU 1.2\nN: x\n".utf8)
        let bare = Array("\n\nN: x\n".utf8)
        #expect(try yaml.withUnsafeBufferPointer { try TraceFile.detectFormat($0, name: "a") } == .libinputRecord)
        #expect(try evemu.withUnsafeBufferPointer { try TraceFile.detectFormat($0, name: "b") } == .evemu)
        #expect(try bare.withUnsafeBufferPointer { try TraceFile.detectFormat($0, name: "c") } == .evemu)
    }

    @Test func deepButHonestNestingInQuotesIsNotCounted() throws {
        // Brackets inside a quoted name and a comment are text, not nesting.
        let text = "version: 1\ndevices:\n- evdev:\n    name: \"\(String(repeating: "[", count: 200))\" # \(String(repeating: "{", count: 200))\n    codes: {}\n"
        let trace = try TraceFile.parse(bytes: Array(text.utf8), name: "quoted.yml", readers: .all)
        #expect(trace.devices[0].description.name == String(repeating: "[", count: 200))
    }

    /// Nesting just inside the guard's limits reaches Yams and must come back as an error, not a
    /// stack overflow; just outside, the guard refuses it first.
    @Test func nestingAtTheLimitsIsAnErrorNotACrash() {
        let flow = "version: 1\ndevices: " + String(repeating: "[", count: 63) + String(repeating: "]", count: 63) + "\n"
        #expect(throws: TraceError.self) { try TraceFile.parse(bytes: Array(flow.utf8), name: "flow.yml", readers: .all) }
        var block = "version: 1\ndevices:\n"
        for depth in 1...120 { block += String(repeating: " ", count: depth * 2) + "k\(depth):\n" }
        #expect(throws: TraceError.self) { try TraceFile.parse(bytes: Array(block.utf8), name: "block.yml", readers: .all) }
        let dashes = "version: 1\ndevices:\n" + String(repeating: "- ", count: 200) + "x\n"
        do {
            _ = try TraceFile.parse(bytes: Array(dashes.utf8), name: "dashes.yml", readers: .all)
            Issue.record("200 nested sequences were accepted")
        } catch let error as TraceError {
            #expect(error.line == 3 && error.message.contains("levels deep"), "\(error)")
        } catch {
            Issue.record("not a TraceError: \(error)")
        }
    }

    /// The fixtures' event lines are in libinput's exact layout, so the byte reader takes all of them.
    @Test func eventLinesInLibinputLayoutBypassYams() throws {
        var bytes = Array(try TraceFixtures.lines(TraceFixtures.fixture("libinput-record/intuos4-stylus-tap.yml"))
            .joined(separator: "\n").utf8)
        let before = bytes.filter { $0 == 0x0A }.count
        var lines = RecordEventLines()
        lines.extract(from: &bytes)
        #expect(lines.eventCount == 396)
        #expect(bytes.filter { $0 == 0x0A }.count == before)  // line numbers kept
        #expect(!String(decoding: bytes, as: UTF8.self).contains("- ["))
    }
}

/// Without PenInputRecord's reader (as in penkitd), a YAML file is a clear error, not a parse failure.
@Test func libinputRecordWithoutItsReaderIsRefused() {
    let text = "# libinput record\nversion: 1\ndevices: []\n"
    #expect(throws: TraceError(file: "x.yml", line: 0, message: "a `libinput record` YAML file, which this program does not read: it reads evemu traces")) {
        try TraceFile.parse(bytes: Array(text.utf8), name: "x.yml")
    }
}
