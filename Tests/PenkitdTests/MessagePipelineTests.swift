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
        pipeline.consume(hover(10, x: 1), device: 1, into: &batch)
        pipeline.consume(hover(12, x: 2), device: 1, into: &batch)
        #expect(pipeline.eventsBackInTime == 0)
        // Another device's clock is its own: earlier than device 1's last is not backwards.
        pipeline.consume(hover(5, x: 3), device: 2, into: &batch)
        #expect(pipeline.eventsBackInTime == 0)
        let sentBefore = batch.messages.count
        pipeline.consume(hover(11, x: 4), device: 1, into: &batch)
        #expect(pipeline.eventsBackInTime == 1)
        #expect(batch.messages.count == sentBefore + 1, "the event still becomes a frame")
        // A device removed and added again starts afresh.
        pipeline.removeDevice(1, at: 20_000, into: &batch)
        pipeline.consume(hover(1, x: 5), device: 1, into: &batch)
        #expect(pipeline.eventsBackInTime == 1)
    }

    @Test func theEngineTickIsOneSettingForLiveAndReplay() {
        #expect(MessagePipeline.engineTick == .milliseconds(25))
        #expect(ReplaySource.engineTick == 25_000)
    }
}
