import CLibevdev
import Foundation
@testable import PenInput
import PenKit
import Testing

@Suite struct DeviceClassificationTests {
    func device(keys: [Int32], abs: [Int32] = [ABS_X, ABS_Y], resolution: Int32 = 100,
                properties: Set<UInt16> = [], name: String = "Device") -> DeviceDescription {
        var info: [UInt16: AbsInfo] = [:]
        for code in abs { info[UInt16(code)] = AbsInfo(minimum: 0, maximum: 1000, resolution: resolution) }
        return DeviceDescription(name: name, bustype: 3, vendor: 0x1234, product: 1, properties: properties,
                                 codes: [UInt16(EV_KEY): Set(keys.map(UInt16.init)), UInt16(EV_ABS): Set(info.keys)],
                                 absInfo: info)
    }

    func error(_ d: DeviceDescription, _ options: DecoderOptions = .standalone) -> DecoderError? {
        do { _ = try TabletDecoder(device: d, options: options); return nil } catch { return error as? DecoderError }
    }

    @Test func nonTabletsAreNamed() {
        #expect(error(device(keys: [BTN_TOOL_FINGER, BTN_TOUCH, BTN_LEFT])) == .notATablet(.touchpad))
        #expect(error(device(keys: [BTN_TOUCH], properties: [UInt16(INPUT_PROP_DIRECT)])) == .notATablet(.touchscreen))
        #expect(error(device(keys: [KEY_A, KEY_B, KEY_ESC], abs: [])) == .notATablet(.keyboard))
        // a separate pad node: BTN_0 and BTN_STYLUS without BTN_TOOL_PEN
        #expect(error(device(keys: [BTN_0, BTN_1, BTN_STYLUS])) == .notATablet(.tabletPad))
    }

    @Test func aCombinedPenAndPadNodeIsATabletWhosePadButtonsYieldNothing() throws {
        let d = device(keys: [BTN_TOOL_PEN, BTN_STYLUS, BTN_0, BTN_1])
        #expect(error(d) == nil)
        let events = try Pen.decode(d, [Pen.frame(0, [(Pen.key, BTN_0, 1)]), Pen.frame(10, [(Pen.key, BTN_0, 0)])])
        #expect(events.isEmpty)
    }

    @Test func tabletsWithoutResolutionOrPenAreIgnoredAsLibinputDoes() throws {
        let noResolution = device(keys: [BTN_TOOL_PEN, BTN_STYLUS], resolution: 0)
        #expect(error(noResolution) == .missingTabletCapabilities(["resolution"]))
        #expect(error(noResolution).map { "\($0)" }?.contains("missing tablet capabilities: resolution") == true)
        // with a resolution supplied, x/y come out in mm at that resolution
        let events = try Pen.decode(noResolution, [Pen.frame(0, [(Pen.key, BTN_TOOL_PEN, 1), (Pen.abs, ABS_X, 500)])],
                                    options: DecoderOptions(fallbackResolution: 50, libwacomDirectory: nil, quirksPaths: []))
        #expect(events.first?.axes.x == 10.0)
        #expect(error(device(keys: [BTN_TOUCH, BTN_LEFT, BTN_TOOL_PEN], abs: [ABS_X, ABS_Y], resolution: 0))
            == .missingTabletCapabilities(["btn-stylus", "resolution"]))
    }

    @Test func axesWithEqualMinAndMaxRejectTheDevice() {
        var d = device(keys: [BTN_TOOL_PEN, BTN_STYLUS], abs: [ABS_X, ABS_Y, ABS_PRESSURE])
        d.absInfo[UInt16(ABS_PRESSURE)] = AbsInfo(minimum: 5, maximum: 5)
        guard case .rejected = error(d) else { Issue.record("expected a rejection"); return }
    }

    @Test func quirksDisableAxesAndSmoothingAndSetPressureRange() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("penkit-quirks-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try """
        [Other device]
        MatchUdevType=tablet
        MatchVendor=0x9999
        AttrTabletSmoothing=1

        [Test pen]
        MatchUdevType=tablet
        MatchBus=usb
        MatchVendor=0x56A
        MatchProduct=0x00B9
        AttrEventCodeDisable=ABS_TILT_X;ABS_TILT_Y;
        AttrTabletSmoothing=0
        AttrPressureRange=300:200

        [Only on one laptop]
        MatchDMIModalias=dmi:*
        MatchUdevType=tablet
        AttrTabletSmoothing=1
        """.write(to: dir.appendingPathComponent("50-test.quirks"), atomically: true, encoding: .utf8)
        let options = DecoderOptions(libwacomDirectory: nil, quirksPaths: [dir.path])
        let decoder = try TabletDecoder(device: Pen.wacom(), options: options)
        #expect(decoder.smoothing == false)
        let events = try Pen.decode(Pen.wacom(), [
            Pen.proximityIn(0),
            Pen.frame(10, [(Pen.abs, ABS_DISTANCE, 0), (Pen.abs, ABS_PRESSURE, 299)]),
            Pen.frame(20, [(Pen.abs, ABS_PRESSURE, 300)]),
        ], options: options)
        #expect(events.map(\.summary) == ["proximity:in", "axis", "tip:down"])
        #expect(!events[0].toolAxes.contains(.tiltX))
        #expect(abs(events[2].axes.pressure - 100.0 / 1847.0) < 1e-12)
    }

    /// Writes `text` as the one quirks file of a directory, and decodes with it.
    private func withQuirks<T>(_ text: String, _ body: (DecoderOptions) throws -> T) throws -> T {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("penkit-quirks-\(getpid())-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try text.write(to: dir.appendingPathComponent("50-test.quirks"), atomically: true, encoding: .utf8)
        return try body(DecoderOptions(libwacomDirectory: nil, quirksPaths: [dir.path]))
    }

    /// libinput since 1.23 writes `AttrEventCode`, each entry `-` (disable) or `+` (enable): a
    /// name, a whole `EV_` type, or a type and hex code. The lists of every matching section
    /// apply in order, so a later section may undo part of an earlier one.
    @Test func quirksInTheNewerSyntaxDisableAndEnableCodesInOrderAcrossSections() throws {
        let quirks = """
        [Test pen]
        MatchUdevType=tablet
        MatchBus=usb
        MatchVendor=0x56A
        MatchProduct=0x00B9
        AttrEventCode=-ABS_TILT_X;-EV_ABS:0x1b;-ABS_DISTANCE;

        [Test pen, distance after all]
        MatchUdevType=tablet
        MatchVendor=0x56A
        AttrEventCode=+ABS_DISTANCE
        """
        let (device, events) = try withQuirks(quirks) { options in
            (try TabletDevice(Pen.wacom(), options: options), try Pen.decode(Pen.wacom(), [Pen.proximityIn(0)], options: options))
        }
        #expect(!device.has(Pen.abs, UInt16(ABS_TILT_X)) && !device.has(Pen.abs, UInt16(ABS_TILT_Y)))
        // Enabled again as libevdev enables an absolute code for a quirk: range 0...1.
        #expect(device.has(Pen.abs, UInt16(ABS_DISTANCE)))
        #expect(device.abs(UInt16(ABS_DISTANCE)) == AbsInfo(minimum: 0, maximum: 1))
        #expect(events.first?.toolAxes.contains(.tiltX) == false)
        #expect(events.first?.toolAxes.contains(.distance) == true)
    }

    /// `+` gives a device capabilities it does not declare (a stylus button, a pressure axis),
    /// as libinput then reports them; the kernel still sends only declared codes.
    @Test func aQuirkInTheNewerSyntaxEnablesMissingCodes() throws {
        let d = device(keys: [BTN_TOOL_PEN, BTN_TOUCH])
        let quirks = """
        [No stylus button, no pressure]
        MatchUdevType=tablet
        MatchVendor=0x1234
        MatchProduct=0x0001
        AttrEventCode=+BTN_STYLUS;+ABS_PRESSURE
        """
        let (tablet, events) = try withQuirks(quirks) { options in
            (try TabletDevice(d, options: options), try Pen.decode(d, [Pen.proximityIn(0)], options: options))
        }
        #expect(tablet.has(Pen.key, UInt16(BTN_STYLUS)))
        #expect(tablet.abs(UInt16(ABS_PRESSURE)) == AbsInfo(minimum: 0, maximum: 1))
        #expect(events.first?.toolAxes.contains(.pressure) == true)
    }

    /// libinput refuses an `AttrEventCode` line with an entry it cannot read (here one without
    /// its sign), so none of it applies.
    @Test func aNewerSyntaxLineWithABadEntryAppliesNothing() throws {
        let quirks = """
        [Test pen]
        MatchUdevType=tablet
        MatchVendor=0x56A
        AttrEventCode=-ABS_TILT_X;ABS_TILT_Y
        """
        let device = try withQuirks(quirks) { options in try TabletDevice(Pen.wacom(), options: options) }
        #expect(device.has(Pen.abs, UInt16(ABS_TILT_X)) && device.has(Pen.abs, UInt16(ABS_TILT_Y)))
    }

    @Test(.enabled(if: LibwacomDatabase.installed != nil))
    func libwacomDecidesTheToolsAxes() throws {
        var d = Pen.wacom(extraKeys: [BTN_TOOL_LENS, BTN_TOOL_MOUSE])
        d.codes[UInt16(EV_REL)] = [UInt16(REL_WHEEL)]
        d.codes[Pen.abs]!.insert(UInt16(ABS_Z))
        d.absInfo[UInt16(ABS_Z)] = AbsInfo(minimum: -900, maximum: 899)
        let options = DecoderOptions(quirksPaths: [])
        #expect(try TabletDecoder(device: d, options: options).smoothing)  // Intuos4 takes no AES pen
        let events = try Pen.decode(d, [
            Pen.frame(0, [(Pen.key, BTN_TOOL_PEN, 1), (Pen.abs, ABS_MISC, 0x802), (Pen.abs, ABS_X, 100)]),
            Pen.frame(10, [(Pen.key, BTN_TOOL_PEN, 0), (Pen.abs, ABS_MISC, 0)]),
            Pen.frame(20, [(Pen.key, BTN_TOOL_LENS, 1), (Pen.abs, ABS_MISC, 0x006), (Pen.abs, ABS_DISTANCE, 20)]),
        ], options: options)
        // the Grip Pen (0x802): tilt, pressure, distance; the Intuos4 lens (0x006): distance only
        #expect(events.first?.toolAxes == [.pressure, .distance, .tiltX, .tiltY])
        #expect(events.last?.tool == ToolIdentity(type: .lens, serial: 0, id: 6))
        #expect(events.last?.toolAxes == [.distance])
    }
}
