@testable import PenInput
import PenKit
import Testing

/// libinput's 50 ms proximity timer served late: on a loaded host libinput read its timerfd after
/// the next report was already queued, so the live proximity ended at the timer's time and the
/// queued report began a new one (the e2e's flight-recorder check met it on the PenPartner). A
/// replay reads the queued report first and sees no timeout; given the times of the live
/// proximity-outs (`DecoderOptions.libinputProximityOuts`, from `penkit record`'s header), the
/// decoder fires the timer where libinput did. Expected values: libinput's rules
/// (evdev-tablet.c `tablet_proximity_out_quirk_timer_func`), on the Intuos4 drag's first
/// proximity, whose timer is armed (the pen has not yet released BTN_TOOL_PEN by itself).
@Suite struct LateProximityTimerTests {
    static func decode(outs: [LiveProximityOut]) throws -> (events: [TabletEvent], hover: (before: UInt64, after: UInt64)) {
        let device = try TraceFile.load(path: TraceFixtures.trace("wacom-intuos4-6x9-stylus-drag.evemu")).devices[0]
        // two hover reports of the first proximity, the first after the pen came in
        let frames = Array(Set(device.events.map(\.time))).sorted()
        let before = frames[3], after = frames[4]
        let events = try TabletDecoder.decode(device.events, device: device.description,
                                              options: DecoderOptions(libinputProximityOuts: outs))
        return (events, (before, after))
    }

    @Test func aTimerServedAfterTheNextReportWasQueuedEndsTheProximityThere() throws {
        let plain = try Self.decode(outs: [])
        let (before, after) = plain.hover
        #expect(after - before < 50_000, "a hover gap the timer does not reach by itself")
        #expect(!plain.events.contains { $0.kind == .proximity && $0.state == .proximityOut && $0.time <= after })
        let late = before + 240_000
        let fired = try Self.decode(outs: [LiveProximityOut(time: late, after: before)]).events
        // the same up to the report before the late timer
        let head = plain.events.prefix { $0.time <= before }
        #expect(Array(fired.prefix(head.count)) == Array(head))
        let next = Array(fired.dropFirst(head.count).prefix(2))
        #expect(next.count == 2)
        #expect(next.first?.kind == .proximity && next.first?.state == .proximityOut && next.first?.time == late)
        #expect(next.last?.kind == .proximity && next.last?.state == .proximityIn && next.last?.time == after)
        #expect(fired.filter { $0.kind == .proximity }.count == plain.events.filter { $0.kind == .proximity }.count + 2)
    }

    /// A proximity-out at or before the next report is one the decoder makes itself (a release,
    /// or the timer on time), and one libinput gave after another report than the one the
    /// decoder read last is not this one: neither changes anything.
    @Test func proximityOutsTheDecoderMakesItselfChangeNothing() throws {
        let plain = try Self.decode(outs: [])
        let (before, after) = plain.hover
        for out in [LiveProximityOut(time: after, after: before), LiveProximityOut(time: before + 10_000, after: before),
                    LiveProximityOut(time: before + 240_000, after: before - 1)] {
            #expect(try Self.decode(outs: [out]).events == plain.events, "\(out)")
        }
    }
}
