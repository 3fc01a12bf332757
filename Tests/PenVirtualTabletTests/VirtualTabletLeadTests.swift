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
    /// stroke ends as it ends without a lead: the ink's last position in contact and the tip-up
    /// event are those of the same recording written with no lead (the real pen's last report in
    /// contact, then its lifting report), so no predicted tail is left in the ink.
    @Test func aFourMillisecondLeadRunsAheadAndLiftsExactly() throws {
        let device = try VirtualTabletFixtures.trace("wacom-intuos4-6x9-stylus-drag.evemu")
        let feel = PenFeel(curve: PressureCurve(x1: 0, y1: 0.25, x2: 0.75, y2: 1))
        let paths = try VirtualTabletPaths(device: device.description, events: device.events, feel: feel,
                                           quirksFile: VirtualTabletFixtures.quirkFile, lead: VirtualTabletLead(milliseconds: 4))
        let plain = try VirtualTabletPaths(device: device.description, events: device.events, feel: feel,
                                           quirksFile: VirtualTabletFixtures.quirkFile)
        let real = PenTrack(paths.real), virtual = PenTrack(paths.virtual)
        let metrics = VirtualTabletMetrics(pairs: [(real, virtual)], feel: feel)
        #expect(metrics.lagMilliseconds < -1, "lag \(metrics.lagMilliseconds) ms: the pen is not written ahead")
        func strokeEnds(_ events: [TabletEvent]) -> [(inkEnd: SIMD2<Double>, lift: SIMD2<Double>, time: UInt64)] {
            var ends: [(SIMD2<Double>, SIMD2<Double>, UInt64)] = [], down = false, last = SIMD2<Double>(0, 0)
            for e in events {
                if e.kind == .tip && !e.tipDown && down { ends.append((last, SIMD2(e.axes.x, e.axes.y), e.time)) }
                if e.kind == .tip { down = e.tipDown }
                if e.kind == .proximity && e.state == .proximityOut { down = false }
                if down { last = SIMD2(e.axes.x, e.axes.y) }
            }
            return ends
        }
        let ahead = strokeEnds(paths.virtual), without = strokeEnds(plain.virtual)
        #expect(!ahead.isEmpty && ahead.count == without.count)
        for (a, p) in zip(ahead, without) {
            #expect(a.time == p.time && a.inkEnd == p.inkEnd && a.lift == p.lift,
                    "with the lead the stroke ends \(a), without it \(p)")
        }
        // And the ends are the real pen's: the lift within a µm of the raw recording's tip-up report.
        var lifts = 0
        for (i, s) in real.samples.enumerated() where i > 0 && !s.touching && real.samples[i - 1].touching
            && real.samples[i - 1].proximity == s.proximity {
            guard let end = ahead.first(where: { $0.time == s.time }) else { Issue.record("no lift at \(s.time)"); continue }
            let d = end.lift - s.position
            #expect(max(abs(d.x), abs(d.y)) <= 0.0005 + 1e-9, "the lift is written \(d) mm from the pen's at \(s.time)")
            lifts += 1
        }
        #expect(lifts >= 1)
    }
}
