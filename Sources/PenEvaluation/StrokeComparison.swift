import PenEngine
import PenInput
import PenKit

/// Compares two sets of finalized strokes sample by sample: what penkitd sent a client
/// while a trace played through the real kernel and libinput (make e2e) against what
/// `penkit replay TRACE --json` computes from the same trace with the Swift decoder.
///
/// Strokes must agree in number, order, tool (type, serial, id), cancellation and number of
/// samples; each sample in position (mm), force, tilt x/y (degrees, from azimuth/altitude:
/// well defined even for an upright pen, where azimuth is not) and roll (radians), each within
/// `tolerance`. Time offsets from a stroke's first sample are compared only when asked
/// (`timeTolerance`): a trace played through uinput gets the kernel's timestamps of the moment
/// each frame was written, not the recorded ones.
package struct StrokeComparison: Sendable {
    /// The compared quantities, in report order.
    package enum Quantity: String, Sendable, CaseIterable {
        case position, force, tilt, roll, time
        package var unit: String {
            switch self {
            case .position: "mm"
            case .force: ""
            case .tilt: "°"
            case .roll: "rad"
            case .time: "µs"
            }
        }
    }

    package var tolerance: Double
    /// µs; nil: time offsets are reported but not checked.
    package var timeTolerance: Double?
    package var actualStrokes = 0
    package var expectedStrokes = 0
    package var strokesCompared = 0
    package var samplesCompared = 0
    /// Largest difference seen per quantity, over every compared sample.
    package var largest: [Quantity: Double] = [:]
    /// Every difference beyond the tolerance, or in count, tool or cancellation.
    package var differences: [String] = []

    package var passed: Bool { differences.isEmpty }

    package init(actual: [Stroke], expected: [Stroke], tolerance: Double = 0.01, timeTolerance: Double? = nil) {
        self.tolerance = tolerance
        self.timeTolerance = timeTolerance
        actualStrokes = actual.count
        expectedStrokes = expected.count
        for quantity in Quantity.allCases { largest[quantity] = 0 }
        if actual.count != expected.count {
            differences.append("\(actual.count) strokes, expected \(expected.count)")
        }
        for (index, (a, e)) in zip(actual, expected).enumerated() {
            compare(a, e, index: index + 1)
        }
    }

    private mutating func compare(_ a: Stroke, _ e: Stroke, index: Int) {
        strokesCompared += 1
        let name = "stroke \(index)"
        if a.tool != e.tool {
            differences.append("\(name): tool \(Self.describe(a.tool)), expected \(Self.describe(e.tool))")
        }
        if a.cancelled != e.cancelled {
            differences.append("\(name): cancelled \(a.cancelled), expected \(e.cancelled)")
        }
        if a.points.count != e.points.count {
            differences.append("\(name): \(a.points.count) samples, expected \(e.points.count)")
        }
        let a0 = a.points.first?.time ?? 0, e0 = e.points.first?.time ?? 0
        for (i, (p, q)) in zip(a.points, e.points).enumerated() {
            samplesCompared += 1
            let (ptx, pty) = Self.tilt(p), (qtx, qty) = Self.tilt(q)
            let values: [(Quantity, Double, String)] = [
                (.position, max(abs(p.x - q.x), abs(p.y - q.y)),
                 "position \(p.x),\(p.y), expected \(q.x),\(q.y)"),
                (.force, abs(p.force - q.force), "force \(p.force), expected \(q.force)"),
                (.tilt, max(abs(ptx - qtx), abs(pty - qty)), "tilt \(ptx),\(pty)°, expected \(qtx),\(qty)°"),
                (.roll, Self.angleDifference(p.roll, q.roll), "roll \(p.roll), expected \(q.roll)"),
                (.time, abs(Double(Int64(bitPattern: p.time &- a0)) - Double(Int64(bitPattern: q.time &- e0))),
                 "time offset \(p.time &- a0) µs, expected \(q.time &- e0) µs"),
            ]
            for (quantity, difference, text) in values {
                if difference > largest[quantity, default: 0] || difference.isNaN { largest[quantity] = difference }
                let limit = quantity == .time ? timeTolerance : tolerance
                if let limit, !(difference <= limit) {
                    differences.append("\(name) sample \(i + 1): \(text)")
                }
            }
        }
    }

    /// One line: counts and the largest difference per quantity.
    package var summary: String {
        let parts = Quantity.allCases.map { quantity -> String in
            let value = largest[quantity] ?? 0
            let shown = quantity == .time ? String(Int(value.rounded())) : Self.format(value)
            return "\(quantity.rawValue) \(shown)\(quantity.unit.isEmpty || quantity.unit == "°" ? "" : " ")\(quantity.unit)"
                + (quantity == .time && timeTolerance == nil ? " (not checked)" : "")
        }
        return "\(strokesCompared) strokes compared (\(actualStrokes) received, \(expectedStrokes) expected), "
            + "\(samplesCompared) samples; largest differences: " + parts.joined(separator: ", ")
    }

    static func tilt(_ s: StrokeSample) -> (x: Double, y: Double) {
        PenMath.tiltDegrees(azimuth: s.azimuth, altitude: s.altitude)
    }

    static func angleDifference(_ a: Double, _ b: Double) -> Double {
        let twoPi = 2 * Double.pi
        var d = (a - b).truncatingRemainder(dividingBy: twoPi)
        if d < 0 { d += twoPi }
        return min(d, twoPi - d)
    }

    static func describe(_ tool: ToolIdentity) -> String {
        "\(tool.type.rawValue) serial \(tool.serial) id \(tool.id)"
    }

    static func format(_ x: Double) -> String {
        if x == 0 { return "0" }
        // up to 6 significant decimals without Foundation
        let scaled = (x * 1_000_000).rounded() / 1_000_000
        return scaled == 0 ? "<1e-6" : "\(scaled)"
    }
}

extension StrokeComparison {
    /// The finalized strokes in a stream of message lines (a client's log or `penkit replay --json`), in order.
    package static func strokes<Lines: Sequence>(inLines lines: Lines) -> [Stroke] where Lines.Element: StringProtocol {
        var strokes: [Stroke] = []
        for line in lines where line.contains("\"type\":\"stroke\"") {
            if case .engine(.stroke(let finalized))? = PenMessage(line: String(line)) {
                strokes.append(finalized.stroke)
            }
        }
        return strokes
    }
}
