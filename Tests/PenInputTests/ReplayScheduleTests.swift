import Foundation
import PenInput
import PenKit
import Testing

/// The replay's schedule on its own: the decoder's output, pass after pass, on the run's clock.
@Suite struct ReplayScheduleTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static func trace(_ name: String) throws -> Trace {
        try TraceFile.load(path: root.appendingPathComponent("traces/\(name)").path)
    }

    /// Every step of one pass.
    static func pass(_ schedule: inout ReplaySchedule) -> [TabletEvent] {
        var events: [TabletEvent] = []
        while schedule.next() != nil { schedule.step(into: &events) }
        return events
    }

    @Test(arguments: ["wacom-intuos4-6x9-stylus-tap.evemu", "wacom-cintiq-22hdt-pen.evemu", "genius-easypen-i405x.evemu"])
    func onePassIsTheDecodersOutput(name: String) throws {
        let trace = try Self.trace(name)
        var schedule = try ReplaySchedule(trace: trace, options: DecoderOptions())
        let replayed = Self.pass(&schedule)
        // The decoder run over the whole trace at once, with its timers fired after the end.
        var expected: [TabletEvent] = []
        for device in trace.devices { expected += try TabletDecoder.decode(device.events, device: device.description) }
        expected.sort { $0.time < $1.time }
        #expect(replayed.count == expected.count)
        #expect(replayed.map(\.time) == expected.map(\.time))
        #expect(replayed.map(\.kind) == expected.map(\.kind))
    }

    @Test func aSecondPassIsTheFirstOneSpanLater() throws {
        var schedule = try ReplaySchedule(trace: try Self.trace("wacom-intuos4-6x9-stylus-tap.evemu"), options: DecoderOptions())
        let first = Self.pass(&schedule)
        let started = schedule.startPass(at: schedule.nextUnpacedBase)
        #expect(started)
        let second = Self.pass(&schedule)
        let span = schedule.span
        #expect(second.count == first.count)
        #expect(zip(first, second).allSatisfy { $1.time == $0.time + span })
        #expect(span == schedule.last - schedule.first + 1_000_000)
    }

    @Test func aPassThatWouldEndNearTheClocksEndIsNotStarted() throws {
        var schedule = try ReplaySchedule(trace: try Self.trace("wacom-intuos4-6x9-stylus-tap.evemu"), options: DecoderOptions())
        let span = schedule.span
        let pastTheCeiling = schedule.startPass(at: ReplaySchedule.timeCeiling - span + 1)
        let atTheEnd = schedule.startPass(at: .max)
        #expect(!pastTheCeiling && !atTheEnd)
        #expect(schedule.passes == 0)
        let lastThatFits = schedule.startPass(at: ReplaySchedule.timeCeiling - span)
        #expect(lastThatFits)
        // Near the end, every time is still the trace's offset from the pass's start, none wrapped.
        let events = Self.pass(&schedule)
        let (base, end) = (schedule.base, schedule.passEnd)
        #expect(!events.isEmpty)
        #expect(events.allSatisfy { $0.time >= base && $0.time <= end })
    }
}
