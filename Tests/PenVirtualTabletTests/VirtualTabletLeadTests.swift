import Foundation
import PenEngine
import PenEvaluation
import PenInput
import PenKit
import PenVirtualTablet
import Testing

/// `virtual-tablet-lead-ms`: the pen written ahead on penkit's prediction in contact only, and a
/// lift that ends the app's ink where the real pen lifted.
@Suite struct VirtualTabletLeadTests {
    static func frame(stroke: UInt64?, predicted: [(UInt64, Double)]) -> Frame {
        Frame(tool: ToolIdentity(type: .pen, serial: 0, id: 0), stroke: stroke, sample: Sample(time: 10_000, x: 5, y: 7),
              predicted: predicted.map { Sample(time: 10_000 + $0.0, x: 5 + $0.1, y: 7) })
    }

    @Test func theOffsetIsThePredictionInterpolatedAtTheLead() throws {
        let lead = VirtualTabletLead(milliseconds: 4)
        // Predicted 1 mm ahead at +2 ms and 3 mm at +6 ms: at +4 ms, halfway, 2 mm.
        let offset = try #require(lead.offset(in: Self.frame(stroke: 1, predicted: [(2_000, 1), (6_000, 3)])))
        #expect(abs(offset.x - 2) < 1e-12 && offset.y == 0)
        // A prediction reaching less far than the lead is held at its last sample.
        #expect(lead.offset(in: Self.frame(stroke: 1, predicted: [(2_000, 1)])) == SIMD2(1, 0))
        // Hovering (no stroke), no prediction, or no lead: nothing.
        #expect(lead.offset(in: Self.frame(stroke: nil, predicted: [(2_000, 1)])) == nil)
        #expect(lead.offset(in: Self.frame(stroke: 1, predicted: [])) == nil)
        #expect(VirtualTabletLead(milliseconds: 0).offset(in: Self.frame(stroke: 1, predicted: [(2_000, 1)])) == nil)
        // A lead past the largest is held there.
        #expect(VirtualTabletLead(milliseconds: 50).microseconds == 8_000)
    }

    /// On a real recording, through penkit's engine and the compositor's libinput-exact decode:
    /// with a 4 ms lead the app gets the pen ahead of where it is during strokes, and each
    /// stroke's ink ends where the real pen lifted (the position of its tip-up report, from the
    /// raw decode of the recording).
    @Test func aFourMillisecondLeadRunsAheadAndLiftsExactly() throws {
        let device = try VirtualTabletFixtures.trace("wacom-intuos4-6x9-stylus-drag.evemu")
        let feel = PenFeel(curve: PressureCurve(x1: 0, y1: 0.25, x2: 0.75, y2: 1))
        let paths = try VirtualTabletPaths(device: device.description, events: device.events, feel: feel,
                                           quirksFile: VirtualTabletFixtures.quirkFile, lead: VirtualTabletLead(milliseconds: 4))
        let real = PenTrack(paths.real), virtual = PenTrack(paths.virtual)
        let metrics = VirtualTabletMetrics(pairs: [(real, virtual)], feel: feel)
        #expect(metrics.lagMilliseconds < -1, "lag \(metrics.lagMilliseconds) ms: the pen is not written ahead")
        var lifts = 0
        for (i, s) in real.samples.enumerated() where i > 0 && !s.touching && real.samples[i - 1].touching
            && real.samples[i - 1].proximity == s.proximity {
            let inkEnd = try #require(virtual.samples.last { $0.touching && $0.time <= s.time && $0.proximity == s.proximity })
            let d = inkEnd.position - s.position
            #expect(max(abs(d.x), abs(d.y)) <= 0.0005 + 1e-9, "ink ends \(d) mm from the lift at \(s.time)")
            lifts += 1
        }
        #expect(lifts >= 1)
    }
}
