import Foundation
import PenKit

/// Draws finalized strokes as SVG polylines in mm, one per stroke, width from each stroke's points.
enum StrokesSVG {
    static func render(_ strokes: [Stroke]) -> String {
        let points = strokes.flatMap(\.points)
        let minX = (points.map(\.x).min() ?? 0) - 5, minY = (points.map(\.y).min() ?? 0) - 5
        let maxX = (points.map(\.x).max() ?? 10) + 5, maxY = (points.map(\.y).max() ?? 10) + 5
        let w = maxX - minX, h = maxY - minY
        var svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(f(w))mm\" height=\"\(f(h))mm\" viewBox=\"\(f(minX)) \(f(minY)) \(f(w)) \(f(h))\">\n"
        svg += "<rect x=\"\(f(minX))\" y=\"\(f(minY))\" width=\"\(f(w))\" height=\"\(f(h))\" fill=\"white\"/>\n"
        for stroke in strokes where !stroke.points.isEmpty {
            let widths = stroke.points.map(\.size)
            let width = widths.reduce(0, +) / Double(widths.count)
            let color = stroke.cancelled ? "#c03030" : "#" + String(stroke.ink.color.hexString.dropFirst().prefix(6))
            let coordinates = stroke.points.map { "\(f($0.x)),\(f($0.y))" }.joined(separator: " ")
            svg += "<polyline fill=\"none\" stroke=\"\(color)\" stroke-width=\"\(f(max(width, 0.2)))\" stroke-linecap=\"round\" stroke-linejoin=\"round\" points=\"\(coordinates)\"/>\n"
        }
        return svg + "</svg>\n"
    }

    static func write(_ strokes: [Stroke], to path: String) throws {
        try render(strokes).write(toFile: path, atomically: true, encoding: .utf8)
    }

    private static func f(_ v: Double) -> String { String(format: "%.3f", v) }
}
