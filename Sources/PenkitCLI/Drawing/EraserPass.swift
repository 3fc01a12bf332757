import ArgumentParser
import PenKit

/// A synthetic eraser stroke `penkit draw --eraser-pass` applies after the trace's own strokes:
/// a straight line between two points (mm, the drawing's coordinates), or `across`: the
/// horizontal and vertical lines through the middle of the ink's bounds, so that a trace whose
/// eraser never touched its ink still shows what an eraser does (`make demo`).
enum EraserPass: ExpressibleByArgument, Sendable, Equatable {
    case line(DrawingPoint, DrawingPoint)
    case across

    init?(argument: String) {
        if argument == "across" {
            self = .across
            return
        }
        let numbers = argument.split(separator: ",").compactMap { Double($0) }
        guard numbers.count == 4, argument.split(separator: ",").count == 4, numbers.allSatisfy(\.isFinite) else { return nil }
        self = .line(DrawingPoint(x: numbers[0], y: numbers[1]), DrawingPoint(x: numbers[2], y: numbers[3]))
    }

    static let helpText = "A straight eraser stroke after the trace's strokes: X0,Y0,X1,Y1 in mm, or `across` (through the middle of the ink, both ways). Repeatable."

    /// The polylines this pass erases along in `drawing`: sampled every `step` mm, as a pen would
    /// report it, so the eraser's path is as dense as a real one's.
    func paths(in drawing: Drawing, step: Double = 0.25) -> [[DrawingPoint]] {
        switch self {
        case .line(let a, let b): return [Self.sampled(a, b, step: step)]
        case .across:
            guard let box = drawing.bounds else { return [] }
            let midX = (box.minX + box.maxX) / 2, midY = (box.minY + box.maxY) / 2
            return [Self.sampled(DrawingPoint(x: box.minX, y: midY), DrawingPoint(x: box.maxX, y: midY), step: step),
                    Self.sampled(DrawingPoint(x: midX, y: box.minY), DrawingPoint(x: midX, y: box.maxY), step: step)]
        }
    }

    static func sampled(_ a: DrawingPoint, _ b: DrawingPoint, step: Double) -> [DrawingPoint] {
        let length = ((b.x - a.x) * (b.x - a.x) + (b.y - a.y) * (b.y - a.y)).squareRoot()
        // Bounded: a pass across a tablet is at most a few hundred mm; a typo of 1e9 mm is refused below.
        let count = max(1, Int((length / step).rounded(.up)))
        return (0...count).map { i in
            let t = Double(i) / Double(count)
            return DrawingPoint(x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t)
        }
    }
}
