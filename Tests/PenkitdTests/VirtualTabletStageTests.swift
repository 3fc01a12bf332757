import Foundation
import Logging
import PenEngine
import PenInput
import PenKit
import PenVirtualTablet
@testable import penkitd
import Testing

/// The virtual tablet's grab policy and what it writes, on a host without uinput or tablets: the
/// kernel's side (EVIOCGRAB, EVIOCGKEY, the uinput device) is stood in for by objects that record
/// what the stage asked of it, with the kernel's key state played from the recording's own events.
/// The real kernel is exercised in the e2e VM (scripts/vm/e2e-guest.sh).
@Suite struct VirtualTabletStageTests {
    /// The kernel's key state as the recording's events leave it: a tool is present from its
    /// proximity-in to its proximity-out.
    final class KernelStandIn: TabletGrabbing {
        var toolPresent = false
        var touching = false
        private(set) var grabbed: Set<Int> = []
        /// Each grab taken or released, with whether a tool was present or touching then.
        private(set) var changes: [(grabbed: Bool, toolPresent: Bool, touching: Bool)] = []
        private(set) var refused = 0

        func grab(device id: Int) -> TabletGrabs.Outcome {
            if grabbed.contains(id) { return .grabbed }
            if toolPresent { refused += 1; return .toolPresent }
            grabbed.insert(id)
            changes.append((true, toolPresent, touching))
            return .grabbed
        }
        func release(device id: Int, force: Bool) -> Bool {
            guard grabbed.contains(id) else { return true }
            if toolPresent && !force { return false }
            grabbed.remove(id)
            changes.append((false, toolPresent, touching))
            return true
        }
        func unregister(device id: Int) { grabbed.remove(id) }
        func releaseAll() { for id in grabbed { _ = release(device: id, force: true) } }
    }

    final class OutputStandIn: VirtualTabletOutput {
        let devnode = "/dev/input/event99"
        private(set) var written: [EvdevEvent] = []
        private(set) var writes = 0
        func write(events: ArraySlice<EvdevEvent>) throws {
            written += events
            writes += 1
        }
    }

    struct Run {
        var kernel = KernelStandIn()
        var output = OutputStandIn()
        var frames: [Frame] = []
        var description: DeviceDescription
    }

    /// Plays a recording through a pipeline with the virtual tablet; the device is added after
    /// `skipping` of its events have gone by (a tablet that appears, or penkitd that starts, mid-hover).
    static func run(_ name: String, skipping: Int = 0, leadMilliseconds: Int = 0) throws -> Run {
        let trace = try TraceFile.load(path: FrameWarmerTests.repoRoot.appendingPathComponent("traces/\(name)").path)
        let device = trace.devices[0]
        let events = try TabletDecoder.decode(device.events, device: device.description,
                                              options: DecoderOptions(smoothing: false, libwacomDirectory: nil, quirksPaths: []))
        var run = Run(description: device.description)
        let kernel = run.kernel, output = run.output
        let stage = VirtualTabletStage(grabs: kernel, logger: Logger(label: "test"),
                                       lead: VirtualTabletLead(milliseconds: leadMilliseconds), makeOutput: { _ in output })
        // A lead writes ahead on the engine's prediction: the pipeline then predicts, as penkitd does.
        var pipeline = MessagePipeline(prediction: leadMilliseconds > 0 ? EnginePrediction.penkit() : nil,
                                       stages: PipelineStages(virtualTablet: stage))
        var batch = OutboundBatch()
        for event in events.prefix(skipping) { kernel.follow(event) }
        let info = DeviceInfo(id: 1, name: device.description.name, vendor: device.description.vendor,
                              product: device.description.product, source: "/dev/input/event5",
                              geometry: TabletGeometry(device.description, libwacom: nil))
        _ = pipeline.addDevice(info, description: device.description)
        for event in events.dropFirst(skipping) {
            kernel.follow(event)
            pipeline.run(.tool(event, device: 1), into: &batch)
        }
        pipeline.stopVirtualTablets(at: (events.last?.time ?? 0) + 1)
        for line in String(decoding: batch.bytes, as: UTF8.self).split(separator: "\n") where line.contains(#""type":"frame""#) {
            if case .frame(let frame) = try JSONDecoder().decode(EngineMessage.self, from: Data(line.utf8)) { run.frames.append(frame) }
        }
        return run
    }

    /// `virtual-tablet-lead-ms` through penkitd's own pipeline (the stage after the engine, on its
    /// prediction): in contact the virtual pen is written ahead of where it is without a lead, and
    /// at every lift the last position in contact is the real pen's, exactly as without a lead.
    @Test func aLeadWritesAheadInContactAndLiftsWhereThePenLifts() throws {
        let plain = try Self.run("wacom-intuos4-6x9-stylus-drag.evemu")
        let ahead = try Self.run("wacom-intuos4-6x9-stylus-drag.evemu", leadMilliseconds: 4)
        let options = DecoderOptions(smoothing: false, libwacomDirectory: nil, quirksPaths: [])
        func contact(_ run: Run) throws -> (positions: [(Double, Double)], lifts: [(Double, Double)]) {
            var down = false, last = (0.0, 0.0), positions: [(Double, Double)] = [], lifts: [(Double, Double)] = []
            for event in try TabletDecoder.decode(run.output.written, device: Self.virtualDescription(run), options: options) {
                if event.kind == .tip { if !event.tipDown && down { lifts.append(last) }; down = event.tipDown }
                if down { last = (event.axes.x, event.axes.y); positions.append(last) }
            }
            return (positions, lifts)
        }
        let (plainPositions, plainLifts) = try contact(plain)
        let (aheadPositions, aheadLifts) = try contact(ahead)
        #expect(!plainLifts.isEmpty && aheadLifts.count == plainLifts.count)
        // Each lift is the run without a lead's: the last position in contact is the real pen's
        // last report in contact, not the prediction, nor the lifting report's position.
        for (a, p) in zip(aheadLifts, plainLifts) { #expect(abs(a.0 - p.0) < 1e-6 && abs(a.1 - p.1) < 1e-6, "lift at \(a), the pen's at \(p)") }
        // Ahead somewhere in contact: the lead moved the written pen by more than a hundredth of a mm.
        let moved = zip(aheadPositions, plainPositions).filter { hypot($0.0 - $1.0, $0.1 - $1.1) > 0.01 }.count
        #expect(moved > aheadPositions.count / 4, "\(moved) of \(aheadPositions.count) contact positions written ahead")
    }

    @Test func theGrabIsTakenOnlyWithNoToolNearAndNeverChangesWithinAStroke() throws {
        let started = MonotonicClock.now()
        let run = try Self.run("wacom-intuos4-6x9-stylus-drag.evemu")
        let ended = MonotonicClock.now()
        // Taken once when the tablet appeared, released once when penkitd stopped.
        #expect(run.kernel.changes.map(\.grabbed) == [true, false])
        #expect(run.kernel.changes.first?.toolPresent == false)
        #expect(run.kernel.changes.allSatisfy { !$0.touching })
        // Everything the pen did reached the virtual tablet, and it ended lifted and away.
        let decoded = try TabletDecoder.decode(run.output.written, device: Self.virtualDescription(run),
                                               options: DecoderOptions(libwacomDirectory: nil, quirksPaths: []))
        #expect(decoded.contains { $0.kind == .tip && $0.tipDown })
        #expect(decoded.last?.kind == .proximity && decoded.last?.state == .proximityOut)
        // Every frame says where the virtual tablet put the pen.
        #expect(!run.frames.isEmpty && run.frames.allSatisfy { $0.delivered != nil })
        // And when it wrote it (CLOCK_MONOTONIC, during this run, in order): the time an app's
        // event for it carries, which SurfacePairing pairs by.
        let written = run.frames.compactMap { $0.delivered?.time }
        #expect(written.count == run.frames.count && written.allSatisfy { $0 >= started && $0 <= ended })
        #expect(zip(written, written.dropFirst()).allSatisfy { $0 <= $1 })
    }

    @Test func aTabletThatAppearsWithThePenNearIsGrabbedAtItsProximityOutAndNotWrittenBefore() throws {
        let trace = try TraceFile.load(path: FrameWarmerTests.repoRoot.appendingPathComponent("traces/wacom-cintiq-22hdt-pen.evemu").path)
        let events = try TabletDecoder.decode(trace.devices[0].events, device: trace.devices[0].description,
                                              options: DecoderOptions(smoothing: false, libwacomDirectory: nil, quirksPaths: []))
        // Mid-hover: after the first proximity-in, before the first touch.
        let firstIn = try #require(events.firstIndex { $0.kind == .proximity && $0.state == .proximityIn })
        let firstOut = try #require(events.firstIndex { $0.kind == .proximity && $0.state == .proximityOut })
        let run = try Self.run("wacom-cintiq-22hdt-pen.evemu", skipping: firstIn + 2)
        #expect(run.kernel.refused == 1)
        #expect(run.kernel.changes.first?.grabbed == true && run.kernel.changes.first?.toolPresent == false)
        // Nothing was written for the pen the compositor was still reading directly.
        let firstWritten = try #require(run.output.written.first)
        #expect(firstWritten.time > events[firstOut].time)
        #expect(run.frames.filter { $0.sample.time <= events[firstOut].time }.allSatisfy { $0.delivered == nil })
    }

    @Test func aNewAreaMakesTheVirtualTabletAnewAtTheNextProximity() throws {
        let trace = try TraceFile.load(path: FrameWarmerTests.repoRoot.appendingPathComponent("traces/wacom-cintiq-22hdt-pen.evemu").path)
        let device = trace.devices[0]
        let events = try TabletDecoder.decode(device.events, device: device.description,
                                              options: DecoderOptions(smoothing: false, libwacomDirectory: nil, quirksPaths: []))
        final class Made { var sizes: [(Int32, Int32)] = [] }
        let made = Made(), kernel = KernelStandIn()
        var stage = VirtualTabletStage(grabs: kernel, logger: Logger(label: "test"), makeOutput: { description in
            made.sizes.append((description.absInfo[0]!.maximum, description.absInfo[1]!.maximum))
            return OutputStandIn()
        })
        stage.add(device: 1, real: device.description, mapping: nil)
        var configuration = EngineConfiguration()
        let ins = events.indices.filter { events[$0].kind == .proximity && events[$0].state == .proximityIn }
        try #require(ins.count >= 2)
        for event in events[..<ins[1]] { kernel.follow(event); _ = stage.consume(event, device: 1, configuration: configuration) }
        // A reload gives the device a 100 × 50 mm area turned a quarter: 50 mm wide, 100 mm tall.
        configuration.mappings[1] = DeviceMapping(area: MappingRect(x: 20, y: 20, width: 100, height: 50), rotation: 90)
        for event in events[ins[1]...] { kernel.follow(event); _ = stage.consume(event, device: 1, configuration: configuration) }
        let sensor = VirtualTabletStage.sensorSize(device.description)
        #expect(made.sizes.count == 2)
        #expect(made.sizes.first.map { $0.0 == Int32((sensor.0 * 1000).rounded()) } == true)
        #expect(made.sizes.last.map { $0.0 == 50_000 && $0.1 == 100_000 } == true)
    }

    static func virtualDescription(_ run: Run) throws -> DeviceDescription {
        let size = VirtualTabletStage.sensorSize(run.description)
        return try #require(VirtualTabletLayout(real: run.description, width: size.0, height: size.1)).description
    }
}

extension VirtualTabletStageTests.KernelStandIn {
    /// The key state after `event`, as the kernel would hold it.
    func follow(_ event: TabletEvent) {
        if event.kind == .proximity { toolPresent = event.state == .proximityIn }
        touching = event.tipDown && toolPresent
    }
}

