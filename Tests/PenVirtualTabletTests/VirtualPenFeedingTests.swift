import PenEngine
import PenInput
import PenKit
import PenVirtualTablet
import Testing

/// How VirtualPen feeds the jitter filter: every report, and afresh at each contact change.
@Suite struct VirtualPenFeedingTests {
    static func event(_ kind: TabletEvent.Kind, _ state: TabletEvent.State? = nil, x: Double, y: Double,
                      pressure: Double = 0, changed: TabletAxisSet, time: UInt64) -> TabletEvent {
        var axes = TabletAxes()
        axes.x = x
        axes.y = y
        axes.pressure = pressure
        return TabletEvent(kind: kind, time: time, tool: ToolIdentity(type: .pen, serial: 7, id: 0x802), state: state,
                           tipDown: false, axes: axes, toolAxes: [.x, .y, .pressure], changedAxes: changed)
    }

    @Test func theFirstReportOfEveryContactChangeIsTheRawPosition() throws {
        let device = try VirtualTabletFixtures.trace("wacom-intuos4-6x9-stylus-drag.evemu")
        let raw = try VirtualTabletFixtures.rawDecode(device)
        let layout = try #require(VirtualTabletLayout(real: device.description, width: 200, height: 150))
        var pen = VirtualPen(layout: layout)
        var written: [EvdevEvent] = []
        var downs = 0, ups = 0, smoothed = 0
        for event in raw {
            pen.translate(event, mapping: nil, feel: PenFeel(), into: &written)
            guard event.kind != .proximity || event.state == .proximityIn, let delivered = pen.delivered else { continue }
            let position = SIMD2(event.axes.x, event.axes.y)
            if event.kind == .tip {
                #expect(delivered == position, "tip \(event.state.map { "\($0)" } ?? "") at \(event.time)")
                if event.tipDown { downs += 1 } else { ups += 1 }
            } else if delivered != position {
                smoothed += 1
            }
        }
        #expect(downs > 0 && ups > 0)
        // Elsewhere the filter is at work.
        #expect(smoothed > 100)
    }

    @Test func aReportThatLeavesXAndYAsTheyWereStillAdvancesTheFilter() throws {
        let device = try VirtualTabletFixtures.trace("wacom-intuos4-6x9-stylus-drag.evemu")
        let layout = try #require(VirtualTabletLayout(real: device.description, width: 200, height: 150))
        var pen = VirtualPen(layout: layout)
        var written: [EvdevEvent] = []
        pen.translate(Self.event(.proximity, .proximityIn, x: 10, y: 20, changed: [.x, .y], time: 0), mapping: nil, feel: PenFeel(), into: &written)
        pen.translate(Self.event(.axis, x: 10.5, y: 20, changed: [.x], time: 5000), mapping: nil, feel: PenFeel(), into: &written)
        pen.translate(Self.event(.axis, x: 11, y: 20, changed: [.x], time: 10000), mapping: nil, feel: PenFeel(), into: &written)
        // The third position is smoothed, so short of 11 (the first two pass as they are).
        let third = try #require(pen.delivered)
        #expect(third.x < 11 - 0.01)
        // Then the pen stays at 11 while only the pressure of its hover changes: the filter, fed each
        // report, settles on 11 (at rest α ≥ 0.159 per report; 120 reports leave less than 1e-6).
        for i in 0..<120 {
            pen.translate(Self.event(.axis, x: 11, y: 20, pressure: 0.001 * Double(i % 2), changed: [.pressure],
                                     time: 15000 + 5000 * UInt64(i)), mapping: nil, feel: PenFeel(), into: &written)
        }
        let settled = try #require(pen.delivered)
        #expect(abs(settled.x - 11) < 1e-6 && abs(settled.y - 20) < 1e-9)
    }
}
