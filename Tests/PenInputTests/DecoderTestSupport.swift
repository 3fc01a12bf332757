import CLibevdev
@testable import PenInput
import PenKit

/// Hand-made devices and event frames for decoder tests; expected values in the tests come
/// from libinput 1.22's rules, worked out by hand.
enum Pen {
    static let key = UInt16(EV_KEY), abs = UInt16(EV_ABS), msc = UInt16(EV_MSC), syn = UInt16(EV_SYN)

    /// An Intuos4-like pen node: 200 units/mm, pressure 0..2047, distance 0..63, tilt 0..127.
    static func wacom(fuzz: Int32 = 0, extraKeys: [Int32] = [], tilt: AbsInfo = AbsInfo(minimum: 0, maximum: 127),
                      vendor: UInt16 = 0x056a, product: UInt16 = 0x00b9) -> DeviceDescription {
        var keys: Set<UInt16> = Set([BTN_TOOL_PEN, BTN_TOOL_RUBBER, BTN_TOUCH, BTN_STYLUS, BTN_STYLUS2].map(UInt16.init))
        keys.formUnion(extraKeys.map(UInt16.init))
        let absInfo: [UInt16: AbsInfo] = [
            UInt16(ABS_X): AbsInfo(minimum: 0, maximum: 44704, fuzz: fuzz, resolution: 200),
            UInt16(ABS_Y): AbsInfo(minimum: 0, maximum: 27940, fuzz: fuzz, resolution: 200),
            UInt16(ABS_PRESSURE): AbsInfo(minimum: 0, maximum: 2047),
            UInt16(ABS_DISTANCE): AbsInfo(minimum: 0, maximum: 63),
            UInt16(ABS_TILT_X): tilt, UInt16(ABS_TILT_Y): tilt,
            UInt16(ABS_MISC): AbsInfo(minimum: 0, maximum: 0),
        ]
        return DeviceDescription(name: "Test Pen", bustype: 3, vendor: vendor, product: product, version: 1,
                                 codes: [key: keys, abs: Set(absInfo.keys), msc: [UInt16(MSC_SERIAL)]],
                                 absInfo: absInfo)
    }

    /// A Genius-like tablet: x/y, pressure declared, BTN_TOOL_PEN and BTN_TOUCH, no distance.
    static func simple(resolution: Int32 = 100, toolPen: Bool = true) -> DeviceDescription {
        var keys: Set<UInt16> = [UInt16(BTN_TOUCH), UInt16(BTN_STYLUS)]
        if toolPen { keys.insert(UInt16(BTN_TOOL_PEN)) }
        let absInfo: [UInt16: AbsInfo] = [
            UInt16(ABS_X): AbsInfo(minimum: 0, maximum: 10000, resolution: resolution),
            UInt16(ABS_Y): AbsInfo(minimum: 0, maximum: 10000, resolution: resolution),
        ]
        return DeviceDescription(name: "Simple Tablet", bustype: 3, vendor: 0x0458, product: 0x5010,
                                 codes: [key: keys, abs: Set(absInfo.keys)], absInfo: absInfo)
    }

    /// Builds one frame: the given (type, code, value) events then SYN_REPORT, all at `time`.
    static func frame(_ time: UInt64, _ events: [(UInt16, Int32, Int32)]) -> [EvdevEvent] {
        events.map { EvdevEvent(time: time, type: $0.0, code: UInt16($0.1), value: $0.2) }
            + [EvdevEvent(time: time, type: syn, code: UInt16(SYN_REPORT), value: 0)]
    }

    static func decode(_ device: DeviceDescription, _ frames: [[EvdevEvent]],
                       options: DecoderOptions = .standalone) throws -> [TabletEvent] {
        var decoder = try TabletDecoder(device: device, options: options)
        var out: [TabletEvent] = []
        for event in frames.joined() { decoder.feed(event, into: &out) }
        return out
    }

    /// The first frame of a pen coming into proximity high above the tablet.
    static func proximityIn(_ time: UInt64, x: Int32 = 2000, y: Int32 = 1000, distance: Int32 = 40) -> [EvdevEvent] {
        frame(time, [(key, BTN_TOOL_PEN, 1), (msc, MSC_SERIAL, 0x1234), (abs, ABS_X, x), (abs, ABS_Y, y),
                     (abs, ABS_DISTANCE, distance)])
    }

    static func move(_ time: UInt64, x: Int32) -> [EvdevEvent] {
        frame(time, [(abs, ABS_X, x), (msc, MSC_SERIAL, 0x1234)])
    }
}

extension TabletEvent {
    var summary: String { "\(kind.rawValue)\(state.map { ":" + $0.rawValue } ?? "")" }
}
