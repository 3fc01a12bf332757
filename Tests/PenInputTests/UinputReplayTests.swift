import CLibevdev
import Glibc
@testable import PenInput
@testable import PenInputLinux
import PenKit
@testable import PenOracle
import Testing

/// The host-side parts of a uinput replay: framing, what the kernel's input core passes on,
/// mapping kernel times back to the trace, and the 50 ms faithfulness check. The kernel
/// rules encoded in the expectations are those of drivers/input/input.c.
@Suite struct UinputReplayTests {
    static let syn = EvdevEvent(time: 0, type: UInt16(EV_SYN), code: UInt16(SYN_REPORT), value: 0)

    static func ev(_ time: UInt64, _ type: Int32, _ code: Int32, _ value: Int32) -> EvdevEvent {
        EvdevEvent(time: time, type: UInt16(type), code: UInt16(code), value: value)
    }

    static let pen = DeviceDescription(
        name: "test pen",
        codes: [UInt16(EV_KEY): [UInt16(BTN_TOOL_PEN), UInt16(BTN_TOUCH)],
                UInt16(EV_ABS): [UInt16(ABS_X), UInt16(ABS_Y)],
                UInt16(EV_MSC): [UInt16(MSC_SERIAL)]],
        absInfo: [UInt16(ABS_X): AbsInfo(minimum: 0, maximum: 1000, resolution: 100),
                  UInt16(ABS_Y): AbsInfo(minimum: 0, maximum: 1000, resolution: 100)])

    @Test func framesEndAtSynReportAndTakeItsTime() {
        let events = [Self.ev(10, EV_ABS, ABS_X, 5), Self.ev(11, EV_SYN, SYN_REPORT, 0),
                      Self.ev(20, EV_ABS, ABS_Y, 7)]
        let frames = EvdevFrame.split(events)
        #expect(frames.count == 2)
        #expect(frames[0].time == 11)
        #expect(frames[0].events.count == 2)
        // A trailing frame without SYN_REPORT gets one, or the kernel would hold it back.
        #expect(frames[1].events.last?.code == UInt16(SYN_REPORT))
        #expect(frames[1].time == 20)
    }

    @Test func kernelDropsRepeatedValuesAndEmptyFrames() {
        var filter = KernelInputFilter(device: Self.pen)
        let f1 = EvdevFrame(time: 1, events: [Self.ev(1, EV_KEY, BTN_TOOL_PEN, 1), Self.ev(1, EV_ABS, ABS_X, 10), Self.ev(1, EV_SYN, SYN_REPORT, 0)])
        #expect(filter.pass(f1)?.events.count == 3)
        // Same X again and the pen key still down: nothing changes, so no frame is delivered.
        let f2 = EvdevFrame(time: 2, events: [Self.ev(2, EV_KEY, BTN_TOOL_PEN, 1), Self.ev(2, EV_ABS, ABS_X, 10), Self.ev(2, EV_SYN, SYN_REPORT, 0)])
        #expect(filter.pass(f2) == nil)
        // MSC events always pass; undeclared codes never do.
        let f3 = EvdevFrame(time: 3, events: [Self.ev(3, EV_MSC, MSC_SERIAL, 7), Self.ev(3, EV_ABS, ABS_PRESSURE, 9), Self.ev(3, EV_SYN, SYN_REPORT, 0)])
        let passed = filter.pass(f3)
        #expect(passed?.events.map(\.code) == [UInt16(MSC_SERIAL), UInt16(SYN_REPORT)])
        // An axis at its initial absinfo value (0) is no change either.
        var fresh = KernelInputFilter(device: Self.pen)
        #expect(fresh.pass(EvdevFrame(time: 4, events: [Self.ev(4, EV_ABS, ABS_Y, 0), Self.ev(4, EV_SYN, SYN_REPORT, 0)])) == nil)
    }

    @Test func timeMapPairsDeliveredFramesAndRejectsAlteredOnes() throws {
        let trace = [EvdevFrame(time: 1_000, events: [Self.ev(1_000, EV_ABS, ABS_X, 1), Self.ev(1_000, EV_SYN, SYN_REPORT, 0)]),
                     EvdevFrame(time: 1_500, events: [Self.ev(1_500, EV_ABS, ABS_X, 1), Self.ev(1_500, EV_SYN, SYN_REPORT, 0)]),
                     EvdevFrame(time: 9_000, events: [Self.ev(9_000, EV_ABS, ABS_X, 2), Self.ev(9_000, EV_SYN, SYN_REPORT, 0)])]
        // The kernel drops the middle frame (X unchanged); the others arrive with kernel times.
        let delivered = [EvdevFrame(time: 500_000, events: [Self.ev(500_000, EV_ABS, ABS_X, 1), Self.ev(500_000, EV_SYN, SYN_REPORT, 0)]),
                         EvdevFrame(time: 508_100, events: [Self.ev(508_100, EV_ABS, ABS_X, 2), Self.ev(508_100, EV_SYN, SYN_REPORT, 0)])]
        let map = try ReplayTimeMap(device: Self.pen, traceFrames: trace, delivered: delivered)
        #expect(map.traceTime(ofKernelTime: 500_000) == 1_000)
        #expect(map.traceTime(ofKernelTime: 508_100) == 9_000)
        // A timer event 50 ms after the last frame keeps that distance.
        #expect(map.traceTime(ofKernelTime: 558_100) == 59_000)
        #expect(map.timingErrors == [0, 100])

        let altered = [delivered[0], EvdevFrame(time: 508_100, events: [Self.ev(508_100, EV_ABS, ABS_X, 3), Self.ev(508_100, EV_SYN, SYN_REPORT, 0)])]
        #expect(throws: UinputError.self) { try ReplayTimeMap(device: Self.pen, traceFrames: trace, delivered: altered) }
        #expect(throws: UinputError.self) { try ReplayTimeMap(device: Self.pen, traceFrames: trace, delivered: [delivered[0]]) }
    }

    /// Frames at the given trace and kernel times (µs), each moving X so none is dropped.
    static func map(trace: [UInt64], kernel: [UInt64]) throws -> ReplayTimeMap {
        let t = trace.enumerated().map { i, time in
            EvdevFrame(time: time, events: [ev(time, EV_ABS, ABS_X, Int32(i + 1)), ev(time, EV_SYN, SYN_REPORT, 0)])
        }
        let k = kernel.enumerated().map { i, time in
            EvdevFrame(time: time, events: [ev(time, EV_ABS, ABS_X, Int32(i + 1)), ev(time, EV_SYN, SYN_REPORT, 0)])
        }
        return try ReplayTimeMap(device: pen, traceFrames: t, delivered: k)
    }

    @Test func faithfulReplayPassesTheProximityTimeoutCheck() throws {
        let map = try Self.map(trace: [0, 48_000, 104_000], kernel: [1_000_000, 1_048_300, 1_104_200])
        // Dispatched every 5 ms throughout.
        let dispatches = stride(from: UInt64(1_000_000), to: 1_110_000, by: 5_000).map { $0 }
        #expect(ForcedProximityCheck.problems(map: map, timerEventKernelTimes: [1_098_400], dispatchTimes: dispatches).isEmpty)
    }

    @Test func gapsReplayedAcrossFiftyMillisecondsAreCaught() throws {
        // 48 ms in the trace became 52 ms: libinput would force a proximity-out real hardware would not.
        let map = try Self.map(trace: [0, 48_000], kernel: [1_000_000, 1_052_000])
        let dispatches = stride(from: UInt64(1_000_000), to: 1_060_000, by: 1_000).map { $0 }
        #expect(ForcedProximityCheck.problems(map: map, timerEventKernelTimes: [], dispatchTimes: dispatches).count == 1)
    }

    @Test func lateDispatchIsCaughtBothWays() throws {
        let map = try Self.map(trace: [0, 56_000, 60_000], kernel: [1_000_000, 1_056_000, 1_060_000])
        // No dispatch between the timer's expiry (51 ms) and the next frame (56 ms).
        let sparse: [UInt64] = [1_000_000, 1_040_000, 1_057_000, 1_061_000]
        #expect(ForcedProximityCheck.problems(map: map, timerEventKernelTimes: [], dispatchTimes: sparse).count == 1)
        // A timer event after the 4 ms gap means libinput saw that gap as 50 ms or more.
        let dense = stride(from: UInt64(1_000_000), to: 1_070_000, by: 1_000).map { $0 }
        #expect(ForcedProximityCheck.problems(map: map, timerEventKernelTimes: [1_058_000], dispatchTimes: dense).count == 1)
    }

    @Test func libevdevTemplateDeclaresWhatTheTraceDeclares() throws {
        let template = try LibevdevDescription(Self.pen)
        #expect(String(cString: libevdev_get_name(template.handle)) == "test pen")
        #expect(libevdev_has_event_code(template.handle, UInt32(EV_KEY), UInt32(BTN_TOOL_PEN)) != 0)
        #expect(libevdev_has_event_code(template.handle, UInt32(EV_KEY), UInt32(BTN_STYLUS)) == 0)
        #expect(libevdev_get_abs_resolution(template.handle, UInt32(ABS_X)) == 100)
        #expect(libevdev_get_abs_maximum(template.handle, UInt32(ABS_Y)) == 1000)
    }

    @Test func anAxisWithoutRangeIsAClearError() {
        var broken = Self.pen
        broken.absInfo[UInt16(ABS_Y)] = nil
        #expect(throws: UinputError.self) { try LibevdevDescription(broken) }
    }

    @Test func missingUinputIsAClearError() throws {
        // Only meaningful where uinput is absent (this project's build machines); elsewhere
        // creating the device may legitimately succeed.
        guard access("/dev/uinput", F_OK) != 0 else { return }
        do {
            _ = try UinputPlayer(description: Self.pen, events: [])
            Issue.record("creating a uinput device without /dev/uinput succeeded")
        } catch let error as UinputError {
            #expect(error.message.contains("/dev/uinput does not exist"))
        }
    }
}

/// When libinput 1.22's forced proximity-out timer is armed, worked out from its rules
/// (evdev-tablet.c): tool in proximity, tip up, no button down, device not yet seen sending
/// BTN_TOOL_PEN 0 itself.
@Suite struct ArmedGapTests {
    static func frame(_ time: UInt64, _ events: [(Int32, Int32, Int32)] = [(EV_ABS, ABS_X, 1)]) -> EvdevFrame {
        EvdevFrame(time: time, events: events.map { EvdevEvent(time: time, type: UInt16($0.0), code: UInt16($0.1), value: $0.2) }
            + [EvdevEvent(time: time, type: UInt16(EV_SYN), code: UInt16(SYN_REPORT), value: 0)])
    }

    static func event(_ time: UInt64, _ kind: TabletEvent.Kind, _ state: TabletEvent.State?, tip: Bool = false, button: UInt32? = nil) -> TabletEvent {
        TabletEvent(kind: kind, time: time, tool: ToolIdentity(type: .pen), state: state, tipDown: tip,
                    axes: TabletAxes(), toolAxes: [], button: button)
    }

    @Test func hoverArmsContactAndButtonsDisarm() {
        let frames = (0..<6).map { Self.frame(UInt64($0) * 10) }
        let events = [Self.event(0, .proximity, .proximityIn),
                      Self.event(10, .tip, .down, tip: true),
                      Self.event(20, .tip, .up),
                      Self.event(30, .button, .pressed, button: UInt32(BTN_STYLUS)),
                      Self.event(40, .button, .released, button: UInt32(BTN_STYLUS))]
        let armed = ForcedProximityCheck.armedGaps(delivered: frames, events: events)
        #expect(armed == [false, true, false, true, false, true])
    }

    @Test func aDeviceThatSendsItsOwnProximityOutIsNeverForced() {
        let frames = [Self.frame(0, [(EV_KEY, BTN_TOOL_PEN, 1)]), Self.frame(10, [(EV_KEY, BTN_TOOL_PEN, 0)]),
                      Self.frame(20, [(EV_KEY, BTN_TOOL_PEN, 1)]), Self.frame(30)]
        let events = [Self.event(0, .proximity, .proximityIn), Self.event(10, .proximity, .proximityOut),
                      Self.event(20, .proximity, .proximityIn)]
        let armed = ForcedProximityCheck.armedGaps(delivered: frames, events: events)
        #expect(armed == [false, true, false, false])
    }
}
