import PenEngine
import PenKit
@testable import penkitd
import Testing

/// The input thread's pipeline on its own: what it counts and what it sends.
@Suite struct MessagePipelineTests {
    private func hover(_ ms: UInt64, x: Double) -> TabletEvent {
        var axes = TabletAxes()
        axes.x = x
        axes.y = 20
        axes.distance = 0.5
        return TabletEvent(kind: .axis, time: ms * 1000, tool: ToolIdentity(type: .pen, serial: 7, id: 0x802), tipDown: false,
                           axes: axes, toolAxes: [.x, .y, .distance], changedAxes: [.x])
    }

    @Test func anEventStampedBeforeTheDevicesLastIsCountedAndStillSent() {
        var pipeline = MessagePipeline(prediction: nil)
        var batch = OutboundBatch()
        pipeline.run(.tool(hover(10, x: 1), device: 1), into: &batch)
        pipeline.run(.tool(hover(12, x: 2), device: 1), into: &batch)
        #expect(pipeline.eventsBackInTime == 0)
        // Another device's clock is its own: earlier than device 1's last is not backwards.
        pipeline.run(.tool(hover(5, x: 3), device: 2), into: &batch)
        #expect(pipeline.eventsBackInTime == 0)
        let sentBefore = batch.messages.count
        pipeline.run(.tool(hover(11, x: 4), device: 1), into: &batch)
        #expect(pipeline.eventsBackInTime == 1)
        #expect(batch.messages.count == sentBefore + 1, "the event still becomes a frame")
        // A device removed and added again starts afresh.
        pipeline.run(.deviceRemoved(1, at: 20_000), into: &batch)
        pipeline.run(.tool(hover(1, x: 5), device: 1), into: &batch)
        #expect(pipeline.eventsBackInTime == 1)
    }

    /// What one client receives, as the batches the input thread publishes, with or without the
    /// lines before each finalized stroke published ahead of it.
    private final class Published {
        var batches: [(bytes: [UInt8], channels: [ChannelSet])] = []
        func add(_ batch: OutboundBatch) {
            batches.append((batch.bytes, batch.messages.map(\.channel)))
        }
    }

    private static func publish(trace: String, ahead: Bool) throws -> Published {
        let published = Published()
        var pipeline = MessagePipeline(prediction: EnginePrediction.penkit(), splitsBeforeStrokes: ahead)
        var batch = OutboundBatch()
        let events = try FrameWarmerTests.events(trace)
        for (device, event) in events {
            pipeline.run(.tool(event, device: device), into: &batch)
            // As the input loop does at a boundary (`InputLoop.publishThroughBoundaries`).
            while batch.boundary {
                published.add(batch)
                batch.removeAll()
                pipeline.run(.resume, into: &batch)
            }
            if !batch.isEmpty { published.add(batch) }
            batch.removeAll()
        }
        pipeline.run(.shutdown(at: (events.last?.event.time ?? 0) + 1_000_000), into: &batch)
        if !batch.isEmpty { published.add(batch) }
        return published
    }

    @Test(arguments: FrameWarmerTests.traces)
    func theFrameThatLiftsThePenGoesOutBeforeItsStrokeIsEncoded(trace: String) throws {
        let plain = try Self.publish(trace: trace, ahead: false)
        let ahead = try Self.publish(trace: trace, ahead: true)
        #expect(ahead.batches.flatMap(\.bytes) == plain.batches.flatMap(\.bytes), "\(trace): a client's bytes changed")
        let strokes = plain.batches.flatMap(\.channels).filter { $0 == .strokes }.count
        // Without publishing ahead, each stroke shares its batch with the lines of the event that ended it.
        let shared = plain.batches.filter { $0.channels.contains(.strokes) && $0.channels.first != .strokes }.count
        #expect(ahead.batches.filter { $0.channels.contains(.strokes) && $0.channels.first != .strokes }.isEmpty,
                "\(trace): a stroke still follows live lines in its batch")
        #expect(ahead.batches.count == plain.batches.count + shared)
        if trace.contains("cintiq") || trace.contains("stylus-drag") {
            #expect(strokes > 0 && shared == strokes, "\(trace): each stroke ends with its last frame's event")
        }
    }

    @Test func theEngineTickIsOneSettingInTwoUnits() {
        #expect(MessagePipeline.engineTick == .milliseconds(25))
        #expect(MessagePipeline.engineTickMicroseconds == 25_000)
    }
}
