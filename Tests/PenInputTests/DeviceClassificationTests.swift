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
