import Foundation
import PenEngine
import PenEvaluation
import PenKit

/// `SyntheticStroke`'s stroke as an evemu recording of the Intuos4 6x9 in traces/, so
/// that penkitd itself can replay an arbitrarily long stroke (x, y at 200 units/mm;
/// tilt 1 unit per degree around 64; pressure over 0...2047).
enum SyntheticTrace {
    static let template = "traces/wacom-intuos4-6x9-stylus-drag.evemu"

    static func evemu(seconds: Double) throws -> String {
        let recording = try String(contentsOfFile: template, encoding: .utf8)
        var out = recording.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.hasPrefix("E:") }.joined(separator: "\n")
        if !out.hasSuffix("\n") { out += "\n" }
        let serial = -1719661677  // the template pen's MSC_SERIAL
        for input in SyntheticStroke.events(seconds: seconds) {
            let e = input.event
            let time = String(format: "%llu.%06llu", e.time / 1_000_000, e.time % 1_000_000)
            func line(_ type: Int, _ code: Int, _ value: Int) {
                out += "E: \(time) " + String(format: "%04x %04x %d\n", type, code, value)
            }
            let x = Int((e.axes.x * 200).rounded()), y = Int((e.axes.y * 200).rounded())
            let tiltX = Int(e.axes.tiltX.rounded()) + 64, tiltY = Int(e.axes.tiltY.rounded()) + 64
            let pressure = Int((e.axes.pressure * 2047).rounded())
            switch (e.kind, e.state) {
            case (.proximity, .proximityIn?):
                line(3, 0x00, x); line(3, 0x01, y); line(3, 0x19, 20); line(3, 0x1a, tiltX); line(3, 0x1b, tiltY)
                line(3, 0x28, 2050); line(1, 0x140, 1)
            case (.tip, .down?):
                line(3, 0x18, pressure); line(3, 0x19, 0); line(1, 0x14a, 1)
            case (.axis, _):
                line(3, 0x00, x); line(3, 0x01, y); line(3, 0x18, pressure); line(3, 0x1a, tiltX); line(3, 0x1b, tiltY)
            case (.tip, .up?):
                line(3, 0x18, 0); line(3, 0x19, 20); line(1, 0x14a, 0)
            case (.proximity, .proximityOut?):
                line(3, 0x28, 0); line(1, 0x140, 0)
            default:
                continue
            }
            line(4, 0, serial)
            line(0, 0, 0)
        }
        return out
    }
}
