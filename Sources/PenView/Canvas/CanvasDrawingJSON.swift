import Foundation
import PenKit

/// The canvas's drawing as JSON, the form the page sends to save and export and gets back when it
/// opens a file: strokes of points in the page's CSS pixels (or mm), each with its ink as an
/// `Ink(spec:)` string ("marker #ffd000ff 6": type, colour, width in mm).
///
/// ```json
/// {"unit":"px","strokes":[{"ink":"pen #1e63d6ff 1","points":[{"x":10,"y":20,"t":1234567,"force":0.4,"altitude":1.2,"azimuth":0.5}]}]}
/// ```
///
/// px are CSS pixels, 96 to the inch, so 1 px = 25.4/96 mm: a drawing saved from the canvas has
/// the size it had on the screen. `t` is µs (any clock; only differences matter), optional.
package struct CanvasDrawingJSON: Codable, Sendable, Equatable {
    package struct Point: Codable, Sendable, Equatable {
        package var x: Double
        package var y: Double
        package var t: Double?
        package var force: Double?
        package var altitude: Double?
        package var azimuth: Double?
        package var roll: Double?

        package init(x: Double, y: Double, t: Double? = nil, force: Double? = nil, altitude: Double? = nil,
                     azimuth: Double? = nil, roll: Double? = nil) {
            self.x = x; self.y = y; self.t = t; self.force = force; self.altitude = altitude; self.azimuth = azimuth; self.roll = roll
        }
    }

    package struct Stroke: Codable, Sendable, Equatable {
        package var ink: String
        package var points: [Point]

        package init(ink: String, points: [Point]) {
            self.ink = ink
            self.points = points
        }
    }

    /// "px" (the default) or "mm".
    package var unit: String?
    package var strokes: [Stroke]

    package init(unit: String? = "px", strokes: [Stroke]) {
        self.unit = unit
        self.strokes = strokes
    }

    /// mm per CSS px: 25.4 mm to the inch, 96 px to the inch.
    package static let millimetresPerPixel = 25.4 / 96

    package struct Invalid: Error, CustomStringConvertible, Sendable {
        package var description: String
    }

    /// Reads the JSON body of a request; every problem is an `Invalid` that says where.
    package static func parse(_ bytes: [UInt8]) throws(Invalid) -> CanvasDrawingJSON {
        do {
            return try JSONDecoder().decode(CanvasDrawingJSON.self, from: Data(bytes))
        } catch let DecodingError.dataCorrupted(context) {
            throw Invalid(description: "the body is not JSON: \(context.debugDescription) \(context.underlyingError.map { "(\($0))" } ?? "")")
        } catch let DecodingError.keyNotFound(key, context) {
            throw Invalid(description: "\(where_(context.codingPath)) has no \"\(key.stringValue)\"")
        } catch let DecodingError.typeMismatch(_, context) {
            throw Invalid(description: "\(where_(context.codingPath)): \(context.debugDescription)")
        } catch let DecodingError.valueNotFound(_, context) {
            throw Invalid(description: "\(where_(context.codingPath)) is null")
        } catch {
            throw Invalid(description: "the body is not a drawing: \(error)")
        }
    }

    private static func where_(_ path: [any CodingKey]) -> String {
        path.isEmpty ? "the body" : path.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
    }

    /// The drawing in PenKit's model (mm): each stroke assembled from its points as the engine
    /// assembles a pen's samples, so its size and opacity come from PenKit's ink response.
    package func drawing() throws(Invalid) -> Drawing {
        let scale: Double
        switch unit ?? "px" {
        case "px": scale = Self.millimetresPerPixel
        case "mm": scale = 1
        case let other: throw Invalid(description: "unit must be \"px\" or \"mm\", not \"\(other)\"")
        }
        var drawing = Drawing()
        for (index, stroke) in strokes.enumerated() {
            let ink: Ink
            do { ink = try Ink(spec: stroke.ink) } catch {
                throw Invalid(description: "stroke \(index): \(error.description)")
            }
            guard !ink.isEraser else {
                throw Invalid(description: "stroke \(index): an eraser stroke leaves no ink; the canvas applies its erasers before it saves")
            }
            guard !stroke.points.isEmpty else { throw Invalid(description: "stroke \(index) has no points") }
            var samples: [Sample] = []
            samples.reserveCapacity(stroke.points.count)
            var last: UInt64 = 0
            for (i, p) in stroke.points.enumerated() {
                let values = [p.x, p.y, p.t ?? 0, p.force ?? 0, p.altitude ?? 0, p.azimuth ?? 0, p.roll ?? 0]
                guard values.allSatisfy(\.isFinite) else { throw Invalid(description: "stroke \(index), point \(i): a number is not finite") }
                // Without times, one point per millisecond; times never go back (a stroke's path needs order).
                let t = p.t.map { UInt64(max($0, 0).rounded()) } ?? UInt64(i) * 1000
                guard t >= last || i == 0 else {
                    throw Invalid(description: "stroke \(index), point \(i): time \(t) µs is before the previous point's \(last)")
                }
                last = t
                samples.append(Sample(time: t, x: p.x * scale, y: p.y * scale, force: min(max(p.force ?? 0.5, 0), 1),
                                      azimuth: p.azimuth ?? 0, altitude: p.altitude ?? .pi / 2, roll: p.roll ?? 0))
            }
            drawing.append(PenKit.Stroke(id: UInt64(index + 1), tool: ToolIdentity(type: .pen), ink: ink, cancelled: false, samples: samples))
        }
        return drawing
    }

    /// A drawing from a file as the canvas draws it, in px. A stroke that was moved (its transform)
    /// or partly erased (its mask) becomes the points of its visible parts, one stroke each, every
    /// 0.25 mm along its path; any other keeps its measured samples. Eraser strokes are left out.
    package init(_ drawing: Drawing) {
        let scale = 1 / Self.millimetresPerPixel
        var strokes: [Stroke] = []
        for stroke in drawing.strokes where !stroke.ink.isEraser {
            let ink = stroke.ink.spec
            if stroke.mask == nil && stroke.transform.isIdentity && !stroke.points.isEmpty {
                strokes.append(Stroke(ink: ink, points: stroke.points.map {
                    Point(x: $0.x * scale, y: $0.y * scale, t: Double($0.time), force: $0.force, altitude: $0.altitude,
                          azimuth: $0.azimuth, roll: $0.roll)
                }))
                continue
            }
            for piece in stroke.visiblePoints(by: .distance(0.25)) where !piece.isEmpty {
                strokes.append(Stroke(ink: ink, points: piece.map {
                    Point(x: $0.x * scale, y: $0.y * scale, t: Double(stroke.creationTime) + $0.timeOffset * 1e6,
                          force: $0.force, altitude: $0.altitude, azimuth: $0.azimuth, roll: $0.roll)
                }))
            }
        }
        self.init(unit: "px", strokes: strokes)
    }

    package func jsonBytes() -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return (try? Array(encoder.encode(self))) ?? Array("{\"unit\":\"px\",\"strokes\":[]}".utf8)
    }
}
