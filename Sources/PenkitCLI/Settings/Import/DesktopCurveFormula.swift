import Foundation

/// How a compositor turns the curve it stores (two control points, from (0,0) to (1,1)) into the
/// force apps get, as its source defines it, and the penkit `pressure-curve` value that gives the
/// same force (docs/daemon.md, "Importing the desktop's settings").
enum DesktopCurveFormula: String, Sendable {
    /// mutter up to 45 (Debian 12 ships 43), calculate_bezier_position in
    /// src/backends/native/meta-input-device-tool-native.c: y = p·(p·(1−y2)+y2 − p·y1) + p·y1,
    /// x1 and x2 unused. That is the quadratic Bézier with control point (½, (y1+y2)/2), which is
    /// exactly the cubic with control points (⅓, (y1+y2)/3) and (⅔, (1+y1+y2)/3), penkit's Bézier.
    case mutterLegacy = "mutter-legacy"
    /// mutter 46 and later (meta-bezier.c): the Bézier sampled in 14.18 fixed point into 256
    /// entries (meta_bezier_sample), read back by meta_bezier_lookup, and the force is
    /// p · lookup(p). That has steps a Bézier cannot draw: penkit takes it as points.
    case mutterTable = "mutter-table"
    /// KWin (src/backends/libinput/device.cpp): QEasingCurve BezierSpline with one cubic segment
    /// from (0,0) through the two points to (1,1), read by valueForProgress: the cubic Bézier's y
    /// where its x is the pressure, penkit's Bézier as it is.
    case kwinBezier = "kwin-bezier"

    /// What the JSON and the docs say of it.
    var definition: String {
        switch self {
        case .mutterLegacy:
            "mutter before 46: y = p*(p*(1-y2)+y2 - p*y1) + p*y1 (calculate_bezier_position; x1, x2 unused), written as penkit's Bezier (1/3, (y1+y2)/3, 2/3, (1+y1+y2)/3), the same curve"
        case .mutterTable:
            "mutter 46 and later: force = p * meta_bezier_lookup(p) over the Bezier sampled into 256 fixed-point entries (meta-bezier.c), written as penkit's points"
        case .kwinBezier:
            "KWin: QEasingCurve BezierSpline, the cubic Bezier from (0,0) through (x1,y1), (x2,y2) to (1,1), y where x is the pressure, written as penkit's Bezier unchanged"
        }
    }

    /// The formula for a mutter version as dpkg-query gives it ("43.8-2~deb12u1"): its table from 46 on.
    static func mutter(version: String) -> DesktopCurveFormula {
        let major = Int(version.split(whereSeparator: { !$0.isNumber }).first ?? "") ?? 0
        return major >= 46 ? .mutterTable : .mutterLegacy
    }

    /// penkit's `pressure-curve` value for the desktop's control points, each in [0,1].
    func penkitCurve(x1: Double, y1: Double, x2: Double, y2: Double) -> String {
        switch self {
        case .mutterLegacy:
            let s = y1 + y2
            return [1.0 / 3, s / 3, 2.0 / 3, (1 + s) / 3].map(Self.decimal).joined(separator: ", ")
        case .kwinBezier:
            return [x1, y1, x2, y2].map(Self.decimal).joined(separator: ", ")
        case .mutterTable:
            let table = MutterBezierTable(x1: x1, y1: y1, x2: x2, y2: y2)
            return "points " + table.knots().map { "\(Self.decimal($0.x)):\(Self.decimal($0.y))" }.joined(separator: " ")
        }
    }

    /// At most 8 decimals, trailing zeros dropped: 1/256 steps are exact, and the rounding is
    /// far under the 1/1000 the import promises.
    static func decimal(_ value: Double) -> String {
        var text = String(format: "%.8f", value)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text == "-0" ? "0" : text
    }
}
