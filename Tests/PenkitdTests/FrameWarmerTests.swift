import Foundation
import PenEngine
import PenInput
import PenKit
@testable import penkitd
import Testing

/// Warm-ups before each pen report (`FrameWarmer`): what clients receive never changes, the
/// shadow engine stays bounded, and the cadence they follow is the one real tablets report at.
@Suite struct FrameWarmerTests {
    static let repoRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static var traces: [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: repoRoot.appendingPathComponent("traces").path)) ?? []
        return names.filter { $0.hasSuffix(".evemu") }.sorted()
    }

    /// A trace's tablet events, every tablet's merged by time, each with its device number (from 1).
    static func events(_ name: String) throws -> [(device: Int, event: TabletEvent)] {
        let trace = try TraceFile.load(path: repoRoot.appendingPathComponent("traces/\(name)").path)
        var merged: [(device: Int, event: TabletEvent)] = []
        for (index, device) in trace.devices.enumerated() {
            guard let events = try? TabletDecoder.decode(device.events, device: device.description) else { continue }
            merged += events.map { (index + 1, $0) }
        }
        return merged.enumerated().sorted { ($0.element.event.time, $0.offset) < ($1.element.event.time, $1.offset) }.map(\.element)
    }

    /// The bytes a client would receive, batch after batch. With warm-ups, the input thread's
    /// schedule: whenever one is due before the next event, it runs at its due time.
    static func received(_ events: [(device: Int, event: TabletEvent)], warmUps: Bool) -> (bytes: [UInt8], warmUps: Int) {
        var pipeline = MessagePipeline(prediction: EnginePrediction.penkit())
        // As the input loop runs them (`InputLoop.wakeUp`), on the events' clock.
        var warmer = warmUps ? FrameWarmer() : nil
        var batch = OutboundBatch()
        var bytes: [UInt8] = []
        for (device, event) in events {
            if let due = warmer?.due, due <= event.time {
                warmer?.warm(now: due, configuration: pipeline.configuration, prediction: pipeline.prediction, scratch: &batch)
                #expect(batch.isEmpty, "a warm-up leaves nothing to publish")
            }
            pipeline.run(.tool(event, device: device), into: &batch)
            warmer?.observe(event, device: UInt32(device))
            bytes += batch.bytes
            batch.removeAll()
        }
        if let last = events.last?.event.time {
            pipeline.run(.shutdown(at: last + 1_000_000), into: &batch)
            bytes += batch.bytes
        }
        return (bytes, warmer?.warmUps ?? 0)
    }

    @Test(arguments: traces)
    func clientsReceiveTheSameBytesWithWarmUps(trace: String) throws {
        let events = try Self.events(trace)
        let plain = Self.received(events, warmUps: false)
        let warmed = Self.received(events, warmUps: true)
        #expect(plain.warmUps == 0)
        #expect(warmed.bytes == plain.bytes, "\(trace): a warm-up changed what clients receive")
        // Every bundled trace but the pad's has a tool reporting at a steady rate for a while.
        if !events.isEmpty {
            #expect(!plain.bytes.isEmpty)
            #expect(warmed.warmUps > 0, "\(trace): no warm-up ran")
        }
    }

    @Test func aSteadyPenIsWarmedBeforeNearlyEveryReport() throws {
        // The Cintiq 22HD touch reports every 8 ms while in proximity: after each report's
        // cadence is known, each following report is warmed for.
        let events = try Self.events("wacom-cintiq-22hdt-pen.evemu")
        let reports = Set(events.filter { $0.event.kind != .button }.map(\.event.time)).count
        let warmed = Self.received(events, warmUps: true).warmUps
        #expect(Double(warmed) >= 0.9 * Double(reports), "\(warmed) warm-ups for \(reports) reports")
        #expect(warmed <= reports, "at most one warm-up per report")
    }

    @Test func theCadenceFollowsARecordedPensReports() throws {
        // From the recording: each report's time against the earliest the cadence expected it.
        // Its reports come on 1 ms bus polls, 7 or 8 ms apart.
        let events = try Self.events("wacom-cintiq-22hdt-pen.evemu")
        var cadence = ReportCadence()
        var lateness: [Int64] = []
        var last: UInt64?
        for (_, event) in events where event.kind != .button {
            if event.kind == .proximity, event.state == .proximityOut { cadence.stop(); last = nil; continue }
            if event.time != last, let earliest = cadence.earliestNextReport {
                lateness.append(Int64(event.time) - Int64(earliest))
            }
            cadence.observe(event.time)
            last = event.time
        }
        lateness.sort()
        #expect(lateness.count > 1000)
        let early = lateness.filter { $0 < -100 }.count
        #expect(Double(early) <= 0.05 * Double(lateness.count), "\(early) of \(lateness.count) reports came before the earliest expected")
        #expect(lateness[lateness.count / 2] <= 1_000, "half the reports come within 1 ms of the earliest expected")
    }

    @Test func theCadenceIgnoresPausesAndGivesUpOnFastDevices() {
        var cadence = ReportCadence()
        cadence.observe(10_000)
        #expect(cadence.earliestNextReport == nil, "one report says nothing about the rate")
        cadence.observe(17_000)
        #expect(cadence.earliestNextReport == 24_000)
        cadence.observe(25_000)
        #expect(cadence.earliestNextReport == 32_000, "the shortest recent spacing")
        cadence.observe(125_000)  // the pen paused 100 ms
        #expect(cadence.earliestNextReport == 132_000, "a pause is not the report rate")
        cadence.observe(126_000)  // 1 kHz: the path stays warm by itself
        #expect(cadence.earliestNextReport == nil)
        cadence.observe(131_000)
        #expect(cadence.earliestNextReport == 136_000)
        cadence.stop()
        #expect(cadence.earliestNextReport == nil)
    }

    private func contact(_ ms: UInt64, x: Double, kind: TabletEvent.Kind = .axis) -> TabletEvent {
        var axes = TabletAxes()
        axes.x = x
        axes.y = 40
        axes.pressure = 0.5
        return TabletEvent(kind: kind, time: ms * 1000, tool: ToolIdentity(type: .pen, serial: 7, id: 0x802),
                           state: kind == .tip ? .down : (kind == .proximity ? .proximityIn : nil), tipDown: kind != .proximity,
                           axes: axes, toolAxes: [.x, .y, .pressure], changedAxes: [.x])
    }

    @Test func theShadowStaysBoundedThroughALongStroke() {
        var warmer = FrameWarmer()
        var scratch = OutboundBatch()
        warmer.observe(contact(0, x: 0, kind: .proximity), device: 1)
        warmer.observe(contact(5, x: 0, kind: .tip), device: 1)
        var most = 0
        for index in 2...3000 {
            let ms = UInt64(index) * 5
            warmer.observe(contact(ms, x: Double(index) * 0.01), device: 1)
            if let due = warmer.due {
                warmer.warm(now: due, configuration: EngineConfiguration(), prediction: EnginePrediction.penkit(), scratch: &scratch)
                most = max(most, warmer.shadowEvents)
            }
        }
        #expect(warmer.warmUps >= 2990)
        #expect(most <= FrameWarmer.restartAfter + FrameWarmer.unseenLimit, "the shadow held \(most) events")
        #expect(scratch.isEmpty)
    }

    @Test func aWarmUpThatCouldDelayTheReportIsSkipped() {
        var warmer = FrameWarmer()
        var scratch = OutboundBatch()
        warmer.observe(contact(0, x: 0, kind: .proximity), device: 1)
        warmer.observe(contact(5, x: 1), device: 1)
        warmer.observe(contact(10, x: 2), device: 1)
        #expect(warmer.due == 15_000 - FrameWarmer.lead)
        // Too close to the report (the thread ran late): skipped, and not tried again for this report.
        warmer.warm(now: 15_000 - FrameWarmer.margin + 1, configuration: EngineConfiguration(), prediction: nil, scratch: &scratch)
        #expect(warmer.warmUps == 0)
        #expect(warmer.due == nil)
        warmer.observe(contact(15, x: 3), device: 1)
        #expect(warmer.due == 20_000 - FrameWarmer.lead)
        warmer.observe(contact(20, x: 4, kind: .proximity).withState(.proximityOut), device: 1)
        #expect(warmer.due == nil, "out of proximity, no report is coming")
    }
}

private extension TabletEvent {
    func withState(_ state: State) -> TabletEvent {
        var event = self
        event.state = state
        return event
    }
}
