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

    /// Several devices are fed in one time order: by time, then by device, then as each device's
    /// events were recorded, even where a device's times go back (a hostile or spliced trace).
    @Test func devicesAreFedInTimeOrderThenDeviceThenRecordedOrder() throws {
        let recorded = try Self.trace("wacom-intuos4-6x9-stylus-tap.evemu").devices[0]
        var shifted = recorded.events.map { EvdevEvent(time: $0.time + 3_000, type: $0.type, code: $0.code, value: $0.value) }
        // Two of the second device's events go back in time, onto times of the first device's.
        shifted.swapAt(10, 40)
        shifted[41].time = recorded.events[20].time
        let trace = Trace(devices: [recorded, Trace.Device(description: recorded.description, events: shifted)])
        var schedule = try ReplaySchedule(trace: trace, options: DecoderOptions())
        var fed: [EvdevEvent] = []
        var decoded: [TabletEvent] = []
        while schedule.next() != nil {
            schedule.step(into: &decoded)
            if let event = schedule.lastFed { fed.append(event) }
        }
        // The order spelled out as a key, not left to a sort's stability.
        let keyed = trace.devices.enumerated().flatMap { device, d in d.events.enumerated().map { (key: ($0.element.time, device, $0.offset), event: $0.element) } }
        let expected = keyed.sorted { $0.key < $1.key }.map(\.event)
        let first = expected[0].time
        #expect(fed.count == expected.count)
        #expect(fed.map { $0.time - schedule.base } == expected.map { $0.time - first })
        #expect(fed.map(\.code) == expected.map(\.code))
        #expect(fed.map(\.value) == expected.map(\.value))
    }
}
