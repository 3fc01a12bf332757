import CLibevdev
import Foundation
@testable import PenInput
import PenKit
import Testing

@Suite struct TabletDecoderTests {
    let k = Pen.key, a = Pen.abs, m = Pen.msc

    @Test func proximityTipAndOutFollowPressureThresholds() throws {
        // 1 % and 5 % of 0..2047 truncate to 20 and 102
        let events = try Pen.decode(Pen.wacom(), [
            Pen.proximityIn(1_000),
            Pen.frame(2_000, [(a, ABS_PRESSURE, 101), (a, ABS_DISTANCE, 0), (k, BTN_TOUCH, 1)]),
            Pen.frame(3_000, [(a, ABS_PRESSURE, 102)]),
            Pen.frame(4_000, [(a, ABS_PRESSURE, 21)]),
            Pen.frame(5_000, [(a, ABS_PRESSURE, 20), (k, BTN_TOUCH, 0)]),
            Pen.frame(6_000, [(k, BTN_TOOL_PEN, 0), (a, ABS_X, 0), (a, ABS_Y, 0)]),
        ])
        #expect(events.map(\.summary) == ["proximity:in", "axis", "tip:down", "axis", "tip:up", "proximity:out"])
        let proximityIn = events[0]
        #expect(proximityIn.time == 1_000)
        #expect(proximityIn.tool == ToolIdentity(type: .pen, serial: 0x1234, id: 0))
        #expect(proximityIn.axes.x == 10.0 && proximityIn.axes.y == 5.0)
        #expect(abs(proximityIn.axes.distance - 40.0 / 63.0) < 1e-12)
        #expect(proximityIn.axes.tiltX == -64 && proximityIn.axes.tiltY == -64)  // raw 0 of 0..127
        // pressure 0 while hovering: its changed bit is dropped, everything else is marked
        #expect(proximityIn.changedAxes == [.x, .y, .distance, .tiltX, .tiltY])
        #expect(proximityIn.toolAxes == [.pressure, .distance, .tiltX, .tiltY])
        // between the thresholds: pressure but no contact, scaled from the lower threshold
        #expect(events[1].tipDown == false)
        #expect(abs(events[1].axes.pressure - 81.0 / 2027.0) < 1e-12)
        #expect(events[2].tipDown && abs(events[2].axes.pressure - 82.0 / 2027.0) < 1e-12)
        #expect(events[3].tipDown && abs(events[3].axes.pressure - 1.0 / 2027.0) < 1e-12)
        #expect(events[4].tipDown == false && events[4].axes.pressure == 0)
        #expect(events[4].changedAxes.contains(.pressure))
        // proximity out reports the last state, not the zeroed axes of its own frame
        #expect(events[5].axes.x == 10.0 && events[5].changedAxes.isEmpty && events[5].time == 6_000)
    }

    @Test func smoothingAveragesFourSamplesInIntegerDeviceUnits() throws {
        let frames = [Pen.proximityIn(0, x: 2001), Pen.move(10, x: 2002), Pen.move(20, x: 2400), Pen.move(30, x: 2800)]
        let smooth = try Pen.decode(Pen.wacom(), frames, options: DecoderOptions(smoothing: true, libwacomDirectory: nil, quirksPaths: []))
        // (2001*3 + 2002) / 4 = 2001 (truncated); (2001*2 + 2002 + 2400) / 4 = 2101; (2001+2002+2400+2800)/4 = 2300
        #expect(smooth.map(\.axes.x) == [10.005, 10.005, 10.505, 11.5])
        // the second frame moved x (marked changed) though the smoothed x stayed put
        #expect(smooth[1].changedAxes.contains(.x))
        let raw = try Pen.decode(Pen.wacom(), frames, options: DecoderOptions(smoothing: false, libwacomDirectory: nil, quirksPaths: []))
        #expect(raw.map(\.axes.x) == [10.005, 10.01, 12.0, 14.0])
    }

    @Test func aSmoothedPositionStillMovingMarksTheAxisChanged() throws {
        let events = try Pen.decode(Pen.wacom(), [
            Pen.proximityIn(0, x: 2000), Pen.move(10, x: 2400), Pen.frame(20, [(a, ABS_Y, 1200)]),
        ])
        // no ABS_X in the last frame, but the average went from 2100 to 2200
        #expect(events[2].changedAxes == [.x, .y])
        #expect(events[2].axes.x == 11.0 && events[2].axes.y == 5.25)
    }

    @Test func contactChangeRestartsTheSmoothingHistory() throws {
        let events = try Pen.decode(Pen.wacom(), [
            Pen.proximityIn(0, x: 2000), Pen.move(10, x: 2400),
            Pen.frame(20, [(a, ABS_X, 4000), (a, ABS_DISTANCE, 0), (a, ABS_PRESSURE, 500)]),
            Pen.move(30, x: 4400),
        ])
        #expect(events.map(\.summary) == ["proximity:in", "axis", "tip:down", "axis"])
        #expect(events[2].axes.x == 20.0)  // history reset: the tip-down sample alone
        #expect(events[3].axes.x == 20.5)  // (4000 * 3 + 4400) / 4 = 4100 units
    }

    @Test func forcedProximityOutAfter50msUntilTheDeviceSendsItsOwn() throws {
        var decoder = try TabletDecoder(device: Pen.wacom(), options: .standalone)
        var out: [TabletEvent] = []
        for e in Pen.proximityIn(1_000_000) + Pen.move(1_005_000, x: 2010) { decoder.feed(e, into: &out) }
        #expect(out.count == 2)
        decoder.advance(to: 1_054_999, into: &out)
        #expect(out.count == 2)
        decoder.advance(to: 1_055_000, into: &out)
        #expect(out.map(\.summary).last == "proximity:out")
        #expect(out.last?.time == 1_055_000)
        // the next axis event brings the pen back without a BTN_TOOL_PEN press
        for e in Pen.move(1_200_000, x: 2100) { decoder.feed(e, into: &out) }
        #expect(out.map(\.summary).suffix(1) == ["proximity:in"])
        // a real release ends the quirk: later gaps do not force anything
        for e in Pen.frame(1_210_000, [(k, BTN_TOOL_PEN, 0)]) { decoder.feed(e, into: &out) }
        for e in Pen.proximityIn(1_300_000, x: 3000) { decoder.feed(e, into: &out) }
        let before = out.count
        decoder.advance(to: 5_000_000, into: &out)
        #expect(out.count == before)
        #expect(out[before - 1].summary == "proximity:in")
    }

    @Test func forcedProximityOutWaitsWhileTheTipIsDown() throws {
        var decoder = try TabletDecoder(device: Pen.wacom(), options: .standalone)
        var out: [TabletEvent] = []
        let frames = Pen.proximityIn(0) + Pen.frame(1_000, [(a, ABS_DISTANCE, 0), (a, ABS_PRESSURE, 800)])
        for e in frames { decoder.feed(e, into: &out) }
        decoder.advance(to: 500_000, into: &out)
        #expect(out.map(\.summary) == ["proximity:in", "tip:down"])
        // lifting the tip lets the timer end the proximity 50 ms after the last event
        for e in Pen.frame(600_000, [(a, ABS_PRESSURE, 0)]) { decoder.feed(e, into: &out) }
        decoder.advance(to: 649_999, into: &out)
        #expect(out.map(\.summary) == ["proximity:in", "tip:down", "tip:up"])
        decoder.advance(to: 650_000, into: &out)
        #expect(out.map(\.summary) == ["proximity:in", "tip:down", "tip:up", "proximity:out"])
        #expect(out.last?.time == 650_000)
        // a gap of centuries in a damaged trace re-arms the timer without looping through it
        var stuck = try TabletDecoder(device: Pen.wacom(), options: .standalone)
        var events: [TabletEvent] = []
        for e in frames { stuck.feed(e, into: &events) }
        stuck.advance(to: UInt64.max - 1, into: &events)
        #expect(events.count == 2)
    }

    @Test func tabletWithoutToolPenEntersProximityOnItsFirstAxisEvent() throws {
        var decoder = try TabletDecoder(device: Pen.simple(toolPen: false), options: .standalone)
        var out: [TabletEvent] = []
        for e in Pen.frame(100, [(a, ABS_X, 500), (a, ABS_Y, 700)]) { decoder.feed(e, into: &out) }
        #expect(out.map(\.summary) == ["proximity:in"])
        #expect(out[0].tool.type == .pen && out[0].axes.x == 5.0 && out[0].axes.y == 7.0)
        decoder.advance(to: 50_100, into: &out)
        #expect(out.map(\.summary) == ["proximity:in", "proximity:out"])
    }

    @Test func touchDecidesContactOnlyWithoutPressureAndRepeatsAreDroppedByTheKernel() throws {
        let events = try Pen.decode(Pen.simple(), [
            Pen.frame(0, [(k, BTN_TOOL_PEN, 1), (a, ABS_X, 100), (a, ABS_Y, 100)]),
            Pen.frame(10, [(k, BTN_TOUCH, 1), (a, ABS_X, 110)]),
            Pen.frame(20, [(k, BTN_TOUCH, 1), (a, ABS_X, 120)]),
            Pen.frame(30, [(k, BTN_TOUCH, 0)]),
        ])
        #expect(events.map(\.summary) == ["proximity:in", "tip:down", "axis", "tip:up"])
        #expect(events[2].tipDown)
    }

    @Test func fuzzFiltersSmallChangesButTheOtherAxisCarriesTheLatestValue() throws {
        let events = try Pen.decode(Pen.wacom(fuzz: 4), [
            Pen.proximityIn(0, x: 2000, y: 1000), Pen.move(10, x: 2004),
            Pen.frame(20, [(a, ABS_Y, 1100)]),
        ], options: DecoderOptions(smoothing: false, libwacomDirectory: nil, quirksPaths: []))
        // x moved by the fuzz only: no axis event; the y event then reads libevdev's x
        #expect(events.map(\.summary) == ["proximity:in", "axis"])
        #expect(events[1].axes.x == 10.02 && events[1].axes.y == 5.5)
    }

    @Test func buttonsFollowTheAxisEventAndCarryNoChangedAxes() throws {
        let events = try Pen.decode(Pen.wacom(extraKeys: [BTN_0]), [
            Pen.proximityIn(0),
            Pen.frame(10, [(a, ABS_X, 2400), (k, BTN_STYLUS, 1), (k, BTN_0, 1)]),
            Pen.frame(20, [(k, BTN_STYLUS, 0), (k, BTN_0, 0)]),
        ])
        #expect(events.map(\.summary) == ["proximity:in", "axis", "button:pressed", "button:released"])
        #expect(events[2].button == UInt32(BTN_STYLUS) && events[2].changedAxes.isEmpty)
        // button events carry the unsmoothed position: 2400, where the axis event says 2100
        #expect(events[1].axes.x == 10.5 && events[2].axes.x == 12.0)
    }

    @Test func pressureOffsetOnProximityInMovesBothThresholds() throws {
        // hovering at 40 of 0..63 (at least 50 %) with pressure 60 (under 20 %): offset 60,
        // thresholds 60 and 60 + (102 - 20) = 142
        let events = try Pen.decode(Pen.wacom(), [
            Pen.frame(0, [(k, BTN_TOOL_PEN, 1), (a, ABS_X, 2000), (a, ABS_Y, 1000), (a, ABS_DISTANCE, 40), (a, ABS_PRESSURE, 60)]),
            Pen.frame(10, [(a, ABS_DISTANCE, 0), (a, ABS_PRESSURE, 141)]),
            Pen.frame(20, [(a, ABS_PRESSURE, 142)]),
        ])
        #expect(events.map(\.summary) == ["proximity:in", "axis", "tip:down"])
        #expect(abs(events[1].axes.pressure - 81.0 / 1987.0) < 1e-12)
        #expect(abs(events[2].axes.pressure - 82.0 / 1987.0) < 1e-12)
    }

    @Test func tiltUsesResolutionInUnitsPerRadianWhenCentredOnZero() throws {
        let tilt = AbsInfo(minimum: -64, maximum: 63, resolution: 57)
        let events = try Pen.decode(Pen.wacom(tilt: tilt), [
            Pen.proximityIn(0), Pen.frame(10, [(a, ABS_TILT_X, 57), (a, ABS_TILT_Y, -20)]),
        ], options: DecoderOptions(smoothing: false, libwacomDirectory: nil, quirksPaths: []))
        #expect(abs(events[1].axes.tiltX - 180.0 / Double.pi) < 1e-9)
        #expect(abs(events[1].axes.tiltY - 180.0 / Double.pi * -20 / 57) < 1e-9)
    }

    @Test func eraserAfterPenWithoutReleaseSwapsTools() throws {
        let events = try Pen.decode(Pen.wacom(), [
            Pen.proximityIn(0), Pen.frame(10, [(k, BTN_TOOL_RUBBER, 1), (a, ABS_X, 2100)]),
        ])
        #expect(events.map(\.summary) == ["proximity:in", "proximity:out", "proximity:in"])
        #expect(events[1].tool.type == .pen && events[2].tool.type == .eraser)
    }

    @Test func synDroppedResynchronisesToTheStateAfterTheDrop() throws {
        var frames = [Pen.proximityIn(0)]
        frames.append([EvdevEvent(time: 100, type: Pen.syn, code: UInt16(SYN_DROPPED), value: 0)])
        frames.append(Pen.frame(150, [(a, ABS_X, 2600), (a, ABS_Y, 1400)]))  // lost with the drop
        frames.append(Pen.move(200, x: 3000))
        let events = try Pen.decode(Pen.wacom(), frames, options: DecoderOptions(smoothing: false, libwacomDirectory: nil, quirksPaths: []))
        #expect(events.map(\.summary) == ["proximity:in", "axis", "axis"])
        #expect(events[1].time == 100 && events[1].axes.x == 13.0 && events[1].axes.y == 7.0)
        #expect(events[2].axes.x == 15.0)
    }

    @Test func lensEntersProximityOnlyCloserThanTheDistanceThreshold() throws {
        // rotation needs BTN_TOOL_MOUSE and tilt on the tablet, whichever cursor is in use
        var device = Pen.wacom(extraKeys: [BTN_TOOL_MOUSE, BTN_TOOL_LENS, BTN_LEFT])
        device.codes[UInt16(EV_REL)] = [UInt16(REL_WHEEL)]
        let events = try Pen.decode(device, [
            Pen.frame(0, [(k, BTN_TOOL_LENS, 1), (a, ABS_X, 2000), (a, ABS_Y, 1000), (a, ABS_DISTANCE, 50)]),
            Pen.frame(10, [(a, ABS_DISTANCE, 42), (a, ABS_X, 2100)]),
            Pen.frame(20, [(a, ABS_DISTANCE, 41), (a, ABS_X, 2200)]),
            Pen.frame(30, [(a, ABS_DISTANCE, 45)]),
        ])
        #expect(events.map(\.summary) == ["proximity:in", "proximity:out"])
        #expect(events[0].tool.type == .lens && events[0].time == 20)
        // without libwacom a lens gets rotation and wheel, never pressure or tilt
        #expect(events[0].toolAxes == [.rotation, .wheel])
    }
}
