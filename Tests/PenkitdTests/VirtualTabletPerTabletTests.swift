import Foundation
import Logging
import PenEngine
import PenInput
import PenKit
import PenVirtualTablet
@testable import penkitd
import Testing

/// `[device …] virtual-tablet = false`: with the virtual tablet on, a tablet whose section says so
/// is left to the compositor: no virtual tablet is made for it and it is never grabbed, while
/// penkitd still serves its pen. Another tablet, or the same one without the key, gets both.
/// (The kernel's side is stood in for as in VirtualTabletStageTests.)
@Suite struct VirtualTabletPerTabletTests {
    /// The trace's first device, added to a pipeline whose config file holds `sections`; what the
    /// stage made and grabbed, and how many frames penkitd sent.
    static func run(sections: String) throws -> (made: Int, grabs: Int, written: Int, frames: Int) {
        let trace = try TraceFile.load(path: FrameWarmerTests.repoRoot.appendingPathComponent("traces/wacom-intuos4-6x9-stylus-drag.evemu").path)
        let device = trace.devices[0]
        let events = try TabletDecoder.decode(device.events, device: device.description,
                                              options: DecoderOptions(smoothing: false, libwacomDirectory: nil, quirksPaths: []))
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("penkitd-\(getpid())-\(UUID().uuidString).conf").path
        try sections.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        var config = DaemonConfig()
        try ConfigFile.apply(path: path, required: true, to: &config)

        let kernel = VirtualTabletStageTests.KernelStandIn(), output = VirtualTabletStageTests.OutputStandIn()
        var made = 0
        let stage = VirtualTabletStage(grabs: kernel, logger: Logger(label: "test"), makeOutput: { _ in made += 1; return output })
        var pipeline = MessagePipeline(prediction: nil, stages: PipelineStages(tablets: SharedSetting(config.tabletSettings), virtualTablet: stage))
        let info = DeviceInfo(id: 1, name: device.description.name, vendor: device.description.vendor,
                              product: device.description.product, source: "/dev/input/event5",
                              geometry: TabletGeometry(device.description, libwacom: nil))
        _ = pipeline.addDevice(info, description: device.description)
        var batch = OutboundBatch()
        for event in events {
            kernel.follow(event)
            pipeline.run(.tool(event, device: 1), into: &batch)
        }
        pipeline.stopVirtualTablets(at: (events.last?.time ?? 0) + 1)
        let frames = String(decoding: batch.bytes, as: UTF8.self).split(separator: "\n").filter { $0.contains(#""type":"frame""#) }.count
        return (made, kernel.changes.filter(\.grabbed).count, output.written.count, frames)
    }

    @Test func aTabletKeptOutIsNeitherMadeNorGrabbedAndStillServed() throws {
        let kept = try Self.run(sections: "virtual-tablet = true\n\n[device 056a:00b9]\nvirtual-tablet = false\n")
        #expect(kept.made == 0 && kept.grabs == 0 && kept.written == 0, "\(kept)")
        #expect(kept.frames > 100, "penkitd still serves the pen: \(kept.frames) frames")

        let taken = try Self.run(sections: "virtual-tablet = true\n\n[device 056a:00b9]\nrotation = 0\n")
        #expect(taken.made == 1 && taken.grabs == 1 && taken.written > 0, "\(taken)")
        #expect(taken.frames == kept.frames)

        // Another model's section changes nothing for this one.
        let other = try Self.run(sections: "[device 056a:0357]\nvirtual-tablet = false\n")
        #expect(other.made == 1 && other.grabs == 1, "\(other)")
    }
}
