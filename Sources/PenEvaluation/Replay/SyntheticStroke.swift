import Glibc
import PenEngine
import PenInput
import PenKit

/// One long stroke made up for benchmarks: a pen at 200 Hz (an Intuos4's report
/// rate) drawing circles with varying pressure and tilt, from proximity-in to
/// proximity-out. Long shading strokes are rare in recorded traces, and cost
/// against stroke length is what this lets anyone check.
package enum SyntheticStroke {
    package static let reportRate = 200

    /// The tablet events of one stroke lasting `seconds`, device 0, starting at `start` µs.
    package static func events(seconds: Double, start: UInt64 = 1_000_000) -> [EngineReplay.Input] {
        let tool = ToolIdentity(type: .pen, serial: 0x8_0000_0001, id: 0x802)
        let toolAxes: TabletAxisSet = [.x, .y, .pressure, .distance, .tiltX, .tiltY]
        let interval = UInt64(1_000_000 / reportRate)
        let count = max(Int((seconds * Double(reportRate)).rounded()), 1)
        var events: [EngineReplay.Input] = []
        events.reserveCapacity(count + 4)

        func event(_ kind: TabletEvent.Kind, _ i: Int, state: TabletEvent.State?, tipDown: Bool,
                   changed: TabletAxisSet) -> EngineReplay.Input {
            let t = Double(i) / Double(reportRate)
            var axes = TabletAxes()
            // A 40 mm circle every 1.3 s, drifting across the tablet so no two laps coincide.
            axes.x = 100 + 40 * cos(t * 4.8) + 20 * sin(t * 0.05)
            axes.y = 80 + 40 * sin(t * 4.8)
            axes.pressure = tipDown ? 0.45 + 0.35 * sin(t * 1.7) : 0
            axes.distance = tipDown ? 0 : 0.1
            axes.tiltX = 30 * sin(t * 0.9)
            axes.tiltY = -20 + 15 * cos(t * 0.7)
            let e = TabletEvent(kind: kind, time: start + UInt64(i) * interval, tool: tool, state: state,
                                tipDown: tipDown, axes: axes, toolAxes: toolAxes, changedAxes: changed)
            return EngineReplay.Input(device: 0, event: e)
        }

        events.append(event(.proximity, 0, state: .proximityIn, tipDown: false, changed: toolAxes))
        events.append(event(.tip, 1, state: .down, tipDown: true, changed: [.pressure, .distance]))
        for i in 2..<(count + 2) {
            events.append(event(.axis, i, state: nil, tipDown: true, changed: [.x, .y, .pressure, .tiltX, .tiltY]))
        }
        events.append(event(.tip, count + 2, state: .up, tipDown: false, changed: [.pressure, .distance]))
        events.append(event(.proximity, count + 3, state: .proximityOut, tipDown: false, changed: []))
        return events
    }
}
