import ArgumentParser
import Foundation
import PenKit

/// `penkit ink-response` (hidden): PenKit's ink response (InkResponse.swift, Ink+Nib.swift) over a
/// grid of force, altitude, azimuth and speed, as JSON. The canvas's inks (canvas-inks.js) are
/// checked against it (scripts/ink-response-check.mjs, in node and in Chromium by
/// `make view-browser-test`): the stroke model is the truth, and the canvas's live ink must draw
/// the widths and opacities the saved drawing will have.
struct InkResponseCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ink-response",
        abstract: "PenKit's ink widths and opacities over a grid of pen inputs, as JSON (for the canvas's check).",
        shouldDisplay: false
    )

    static let inks: [Ink.InkType] = [.pen, .pencil, .marker, .monoline, .fountainPen, .watercolor, .crayon]
    static let forces: [Double] = [0, 0.1, 0.25, 0.5, 0.8, 1, 1.3, -0.2]
    static let altitudes = [Double.pi / 2, 1.2, 0.7, 0.3, 0]
    static let azimuths: [Double] = [0, 0.8, 2.5, 4.7]
    static let speeds: [Double] = [0, 250, 1200, 4000]
    /// Widths inside every ink's range; alphas a colour may have.
    static let widths = [1.0, 2.5]
    static let alphas = [1.0, 0.4]

    func run() throws {
        var cases: [String] = []
        for type in Self.inks {
            for width in Self.widths {
                for alpha in Self.alphas {
                    let ink = Ink(type, color: InkColor(red: 0, green: 0, blue: 0, alpha: alpha), width: width)
                    for f in Self.forces {
                        for altitude in Self.altitudes {
                            for azimuth in Self.azimuths {
                                for v in Self.speeds {
                                    let size = ink.size(force: f, altitude: altitude, azimuth: azimuth, speed: v)
                                    let opacity = ink.opacity(force: f, altitude: altitude, azimuth: azimuth, speed: v)
                                    cases.append("{\"ink\":\"\(type.rawValue)\",\"width\":\(n(ink.width)),\"alpha\":\(n(alpha)),"
                                                 + "\"force\":\(n(f)),\"altitude\":\(n(altitude)),\"azimuth\":\(n(azimuth)),\"speed\":\(n(v)),"
                                                 + "\"size\":\(n(size)),\"opacity\":\(n(opacity))}")
                                }
                            }
                        }
                    }
                }
            }
        }
        print("{\"inks\":\(InkDefinition.tableJSON(Self.inks)),\n\"cases\":[\n\(cases.joined(separator: ",\n"))\n]}")
    }

    /// Round-trip exact: JSON numbers JavaScript reads back as the same doubles.
    private func n(_ x: Double) -> String { "\(x)" }
}
