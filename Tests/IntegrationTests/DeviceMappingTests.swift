import Foundation
import Testing

/// Device geometry in `hello`, the config file's mapping (area, rotation, output) and feel
/// (pressure curve, thresholds, per-serial settings, hover cut-off), on a real trace replayed by
/// a spawned penkitd and read over its socket. Expected values come from the trace's own header
/// and from the formulas, compared against an unmapped replay of the same trace.
@Suite(.serialized)
struct DeviceMappingTests {
    /// A display tablet with pen, pencil, airbrush and eraser; several pens with distinct serials.
    static let trace = "wacom-cintiq-22hdt-pen.evemu"
    static let axes = try! TraceAxes(evemu: tracePath(trace))
    /// The same trace with no config: the reference every mapped run is compared with.
    static let plain = Result { try ReplayCapture(trace: trace, config: "") }

    /// The two captures' frames, paired in order (a deterministic replay sends the same frames).
    static func pairs(_ a: ReplayCapture, _ b: ReplayCapture) throws -> [([String: Any], [String: Any])] {
        let x = a.frames, y = b.frames
        try #require(x.count == y.count && x.count > 500, "frame counts differ: \(x.count) vs \(y.count)")
        return Array(zip(x, y))
    }

    @Test func helloGivesTheTracesSizeResolutionAxesAndIntegration() throws {
        let device = try Self.plain.get().device
        #expect(abs(device.number("width")! - Self.axes.width) < 1e-9)
        #expect(abs(device.number("height")! - Self.axes.height) < 1e-9)
        let resolution = device.dictionary("resolution")
        #expect(resolution.number("x") == Self.axes.ranges[0x00]?.resolution)
        #expect(resolution.number("y") == Self.axes.ranges[0x01]?.resolution)
        // Every axis the trace declares, by its evdev code.
        let names = [0x00: "x", 0x01: "y", 0x02: "rotation", 0x08: "slider", 0x18: "pressure", 0x19: "distance",
                     0x1a: "tilt-x", 0x1b: "tilt-y"]
        #expect(Set(device.strings("axes")) == Set(Self.axes.ranges.keys.compactMap { names[$0] }))
        #expect(Set(device.strings("tools")).isSuperset(of: ["pen", "eraser", "pencil", "airbrush"]))
        #expect(device.strings("buttons").contains("BTN_STYLUS"))
        // INPUT_PROP_DIRECT (bit 1) in the trace's header: a display tablet.
        #expect(Self.axes.properties.contains(1))
        #expect(device["display"] as? Bool == true)
        #expect(device["mapping"] == nil)
    }

    @Test func rotation180MapsPositionsAndAzimuthAndOutput() throws {
        let rotated = try ReplayCapture(trace: Self.trace, config: "[device *]\nrotation = 180\noutput = 0, 0, 1920, 1080\n")
        let W = Self.axes.width, H = Self.axes.height
        let mapping = rotated.device.dictionary("mapping")
        #expect(mapping.number("rotation") == 180 && abs(mapping.number("width")! - W) < 1e-9)
        var azimuthsChecked = 0
        for (plain, turned) in try Self.pairs(try Self.plain.get(), rotated) {
            let p = plain.dictionary("sample"), r = turned.dictionary("sample")
            #expect(p.number("t") == r.number("t"))
            #expect(abs(r.number("x")! - (W - p.number("x")!)) < 1e-9)
            #expect(abs(r.number("y")! - (H - p.number("y")!)) < 1e-9)
            #expect(abs(r.number("outputX")! - r.number("x")! / W * 1920) < 1e-6)
            #expect(abs(r.number("outputY")! - r.number("y")! / H * 1080) < 1e-6)
            if !p.strings("estimated").contains("azimuth"), p.number("altitude")! < .pi / 2 - 1e-6 {
                #expect(angleDistance(r.number("azimuth")!, p.number("azimuth")! + .pi) < 1e-9)
                azimuthsChecked += 1
            }
            for predicted in turned.list("predicted") {
                #expect(abs(predicted.number("outputX")! - predicted.number("x")! / W * 1920) < 1e-6)
            }
        }
        #expect(azimuthsChecked > 500)
        let plainStrokes = try Self.plain.get().ofType("stroke"), rotatedStrokes = rotated.ofType("stroke")
        try #require(plainStrokes.count == rotatedStrokes.count && !plainStrokes.isEmpty)
        for (p, r) in zip(plainStrokes, rotatedStrokes) {
            for (a, b) in zip(p.dictionary("stroke").list("points"), r.dictionary("stroke").list("points")) {
                #expect(abs(b.number("x")! - (W - a.number("x")!)) < 1e-9)
                #expect(abs(b.number("y")! - (H - a.number("y")!)) < 1e-9)
            }
        }
    }

    @Test func anAreaMapsItsCornersToZeroAndItsSize() throws {
        let (X, Y, w, h) = (100.0, 50.0, 200.0, 120.0)
        let mapped = try ReplayCapture(trace: Self.trace, config: "[device 056a:005b]\narea = \(X), \(Y), \(w), \(h)\n")
        let mapping = mapped.device.dictionary("mapping")
        #expect(mapping.number("width") == w && mapping.number("height") == h)
        // Positions move by the area's corner, unscaled: (X, Y) → (0, 0) and (X + w, Y + h) → (w, h).
        for (plain, area) in try Self.pairs(try Self.plain.get(), mapped) {
            let p = plain.dictionary("sample"), a = area.dictionary("sample")
            #expect(abs(a.number("x")! - (p.number("x")! - X)) < 1e-9)
            #expect(abs(a.number("y")! - (p.number("y")! - Y)) < 1e-9)
        }
        // Left-handed on top of the area: the area's far corner becomes the origin.
        let turned = try ReplayCapture(trace: Self.trace, config: "[device]\narea = \(X), \(Y), \(w), \(h)\nleft-handed = true\n")
        for (plain, area) in try Self.pairs(try Self.plain.get(), turned) {
            let p = plain.dictionary("sample"), a = area.dictionary("sample")
            #expect(abs(a.number("x")! - (w - (p.number("x")! - X))) < 1e-9)
            #expect(abs(a.number("y")! - (h - (p.number("y")! - Y))) < 1e-9)
        }
    }

    /// The cubic Bézier from (0,0) to (1,1) with control x's 1/3 and 2/3 has x(t) = t, so its
    /// value at p is the y polynomial at t = p.
    static func bezier(_ p: Double, _ y1: Double, _ y2: Double) -> Double {
        3 * (1 - p) * (1 - p) * p * y1 + 3 * (1 - p) * p * p * y2 + p * p * p
    }

    @Test func pressureCurvesAndThresholdsPerTypeAndSerial() throws {
        let third = "0.3333333333333333", twoThirds = "0.6666666666666666"
        let config = """
        [tool pen]
        pressure-min = 0.05
        [tool serial 3783262343]
        pressure-curve = \(third), 0.9, \(twoThirds), 0.95
        [tool serial 2608857136]
        pressure-curve = \(third), 0.1, \(twoThirds), 0.2
        [tool pencil]
        pressure-min = 0.1
        pressure-max = 0.6

        """
        let shaped = try ReplayCapture(trace: Self.trace, config: config)
        var checked: [UInt64: Int] = [:]
        for (plain, felt) in try Self.pairs(try Self.plain.get(), shaped) where plain["stroke"] != nil {
            let p = plain.dictionary("sample"), f = felt.dictionary("sample")
            let tool = plain.dictionary("tool")
            let serial = (tool["serial"] as? NSNumber)?.uint64Value ?? 0
            let raw = p.number("force")!
            let type = tool["type"] as? String
            // A serial's section holds for both ends of that pen (the eraser end reports the same serial).
            let low: Double? = type == "pen" ? 0.05 : type == "pencil" ? 0.1 : nil
            let high: Double? = type == "pencil" ? 0.6 : nil
            let curve: (Double, Double)? = serial == 3783262343 ? (0.9, 0.95) : serial == 2608857136 ? (0.1, 0.2) : nil
            if low == nil, high == nil, curve == nil {
                // No section: force untouched, no rawForce.
                #expect(f["rawForce"] == nil && f.number("force") == raw)
                continue
            }
            // The raw force is kept, equal to the unshaped run's force.
            #expect(f.number("rawForce") == raw)
            let stretched = min(max((raw - (low ?? 0)) / ((high ?? 1) - (low ?? 0)), 0), 1)
            let expected = curve.map { Self.bezier(stretched, $0.0, $0.1) } ?? stretched
            #expect(abs(f.number("force")! - expected) < 1e-9, "tool \(serial) raw \(raw)")
            checked[serial, default: 0] += 1
        }
        // Both curved pens, a pen with the type's threshold only, and the pencil.
        #expect(checked[3783262343, default: 0] > 50 && checked[2608857136, default: 0] > 50)
        #expect(checked[680029259, default: 0] > 20 && checked[2608857112, default: 0] > 10)
    }

    @Test func hoverFramesBeyondTheCutoffAreNotSent() throws {
        let cut = try ReplayCapture(trace: Self.trace, config: "[tool pen]\nhover-cutoff = 0.5\n")
        func far(_ frame: [String: Any]) -> Bool {
            frame["stroke"] == nil && frame.dictionary("tool")["type"] as? String == "pen"
                && frame.dictionary("sample").number("distance")! > 0.5
        }
        let plain = try Self.plain.get().frames
        #expect(plain.filter(far).count > 20)
        #expect(cut.frames.filter(far).isEmpty)
        // Contact frames and other tools' hover frames all still come.
        #expect(cut.frames.count == plain.count - plain.filter(far).count)
    }

    @Test func framesStrokesAndUpdatesCarryTheDeviceID() throws {
        let capture = try Self.plain.get()
        let id = capture.device.number("id")
        #expect(id == 1)
        for message in capture.messages where ["frame", "began", "ended", "update", "stroke"].contains(message["type"] as? String) {
            #expect(message.number("device") == id, "\(message["type"] ?? "")")
        }
    }

    @Test func sighupChangesMappingAndFeelWithoutARestart() throws {
        let W = Self.axes.width, H = Self.axes.height
        // Positions a pass of the trace reaches, to recognise rotated ones.
        func key(_ x: Double, _ y: Double) -> String { "\(Int((x * 1000).rounded())),\(Int((y * 1000).rounded()))" }
        let positions = Set(try Self.plain.get().frames.map { key($0.dictionary("sample").number("x")!, $0.dictionary("sample").number("y")!) })

        let path = FileManager.default.temporaryDirectory.appendingPathComponent("penkitd-\(UUID().uuidString).conf").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try "".write(toFile: path, atomically: true, encoding: .utf8)
        let daemon = try DaemonProcess(["--replay", tracePath(Self.trace), "--loop", "--wait-clients", "1"], config: path)
        let client = try daemon.connect()
        _ = try client.readLine()
        try client.subscribe(["frames", "devices"])
        var before = 0
        while before < 200, let line = try client.readLine() {
            guard type(line) == "frame" else { continue }
            #expect(object(line).dictionary("sample")["rawForce"] == nil)
            before += 1
        }
        try "[device *]\nrotation = 180\n[tool pen]\npressure-curve = 0.3333333333333333, 0.9, 0.6666666666666666, 0.95\n"
            .write(toFile: path, atomically: true, encoding: .utf8)
        daemon.signal(SIGHUP)
        try waitFor { daemon.log.contains("configuration reloaded") }
        // From the first curved sample on (a tip-down after the reload), every frame is rotated.
        var curved = 0, rotated = 0
        var switched = false
        var announced: [String: Any]?
        while curved < 200, let line = try client.readLine() {
            if type(line) == "device" {
                let message = object(line)
                #expect(message["change"] as? String == "changed")
                announced = message.dictionary("device").dictionary("mapping")
            }
            guard type(line) == "frame" else { continue }
            let frame = object(line), sample = frame.dictionary("sample")
            if let raw = sample.number("rawForce") {
                switched = true
                curved += 1
                #expect(abs(sample.number("force")! - Self.bezier(raw, 0.9, 0.95)) < 1e-9)
            }
            guard switched else { continue }
            #expect(positions.contains(key(W - sample.number("x")!, H - sample.number("y")!)))
            rotated += 1
        }
        #expect(curved == 200 && rotated >= curved)
        // Clients on the devices channel were told of the new mapped space.
        #expect(announced?.number("rotation") == 180 && abs((announced?.number("width") ?? 0) - W) < 1e-9)
        #expect(daemon.stop() == 0)
    }

    @Test func penkitDevicesPrintsTheGeometryAsLibinputListDevicesDoes() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("penkitd-\(UUID().uuidString).conf").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try "[device Wacom Cintiq 22HDT Pen]\nrotation = 90\n".write(toFile: path, atomically: true, encoding: .utf8)
        let daemon = try DaemonProcess(["--replay", tracePath(Self.trace), "--wait-clients", "5"], config: path)
        let penkit = URL(fileURLWithPath: penkitdPath).deletingLastPathComponent().appendingPathComponent("penkit").path
        let (status, output) = try run(penkit, ["devices", "--socket", daemon.socket])
        #expect(status == 0, "\(output)")
        // libinput list-devices' layout: the label and its colon padded to 18 columns; sizes with two decimals.
        let size = String(format: "%.2fx%.2fmm", Self.axes.width, Self.axes.height)
        #expect(output.contains("Device:           Wacom Cintiq 22HDT Pen\n"), "\(output)")
        #expect(output.contains("Size:             \(size)\n"), "\(output)")
        let resolution = "\(Int(Self.axes.ranges[0x00]!.resolution))x\(Int(Self.axes.ranges[0x01]!.resolution))"
        #expect(output.contains("Resolution:       \(resolution) units/mm\n"), "\(output)")
        #expect(output.contains("Integration:      display\n"), "\(output)")
        #expect(output.contains(String(format: "Mapped:           %.2fx%.2fmm, rotated 90°\n", Self.axes.height, Self.axes.width)), "\(output)")
        #expect(daemon.stop() == 0)
    }

    @Test func aBadSectionKeyNamesFileAndLine() throws {
        let config = FileManager.default.temporaryDirectory.appendingPathComponent("penkitd-\(UUID().uuidString).conf").path
        defer { try? FileManager.default.removeItem(atPath: config) }
        try "[device *]\nrotation = 45\n".write(toFile: config, atomically: true, encoding: .utf8)
        let result = try run([penkitdPath, "--config", config, "--socket", "/nonexistent/penkit.sock"])
        #expect(result.status != 0)
        #expect(result.output.contains("\(config):2: rotation must be 0, 90, 180 or 270"))
    }
}
