import Foundation
@testable import penkit
import PenEngine
import Testing

/// penkit's curve, as the import writes it and penkitd reads it (PressureCurve(spec:)), against
/// each compositor's formula, written here again from its source and not from the import's code:
/// mutter 43's calculate_bezier_position, mutter 46's meta_bezier_sample/lookup (C integer
/// semantics, Int32), KWin's QEasingCurve Bézier (x solved by Cardano's formula, as Qt's
/// BezierEase does). Densely over [0,1], within 1/1000 of force.
@Suite struct DesktopCurveFormulaTests {
    /// GNOME's curves (pressure-curve, 0…100): its panel's presets, soft to firm, and odd ones.
    static let gnomeCurves: [[Int]] = [[0, 0, 100, 100], [0, 75, 25, 100], [0, 50, 50, 100], [0, 25, 75, 100],
                                       [25, 0, 100, 75], [50, 0, 100, 50], [75, 0, 100, 25], [20, 10, 80, 90],
                                       [100, 0, 0, 100], [0, 100, 100, 0], [33, 90, 10, 5]]
    static let samples = (0...4096).map { Double($0) / 4096 }

    static func shaped(_ spec: String) throws -> PressureCurve { try PressureCurve(spec: spec) }

    @Test(arguments: gnomeCurves) func mutter43sFormula(_ c: [Int]) throws {
        let (x1, y1, x2, y2) = (Double(c[0]) / 100, Double(c[1]) / 100, Double(c[2]) / 100, Double(c[3]) / 100)
        let curve = try Self.shaped(DesktopCurveFormula.mutterLegacy.penkitCurve(x1: x1, y1: y1, x2: x2, y2: y2))
        let worst = Self.samples.map { p -> Double in
            // meta-input-device-tool-native.c (mutter 43.8): the lines from (0,0) to (x1,y1) and from (x2,y2) to (1,1), blended.
            let int1 = p * y1, int2 = p * (1 - y2) + y2
            return abs(curve.value(at: p) - (p * (int2 - int1) + int1))
        }.max() ?? 1
        #expect(worst <= 1e-3, "worst \(worst) for \(c)")
    }

    @Test(arguments: gnomeCurves) func mutter46sTable(_ c: [Int]) throws {
        let (x1, y1, x2, y2) = (Double(c[0]) / 100, Double(c[1]) / 100, Double(c[2]) / 100, Double(c[3]) / 100)
        let spec = DesktopCurveFormula.mutterTable.penkitCurve(x1: x1, y1: y1, x2: x2, y2: y2)
        let curve = try Self.shaped(spec)
        let mutter = Mutter46Bezier(c)
        let worst = Self.samples.map { abs(curve.value(at: $0) - mutter.force($0)) }.max() ?? 1
        #expect(worst <= 1e-3, "worst \(worst) for \(c)")
        // Just below and at each entry's start, where the lookup jumps.
        let edges = (1..<256).flatMap { [Double($0) / 256 - 1e-9, Double($0) / 256] }
        let worstAtEdges = edges.map { abs(curve.value(at: $0) - mutter.force($0)) }.max() ?? 1
        #expect(worstAtEdges <= 1e-3, "worst at the entries' edges \(worstAtEdges) for \(c)")
    }

    @Test func mutter46sFormulaIsNotMutter43s() throws {
        // The two formulas differ for GNOME's firm preset: choosing by version matters.
        let old = try Self.shaped(DesktopCurveFormula.mutterLegacy.penkitCurve(x1: 0.5, y1: 0, x2: 1, y2: 0.5))
        let new = Mutter46Bezier([50, 0, 100, 50])
        #expect(Self.samples.map { abs(old.value(at: $0) - new.force($0)) }.max()! > 0.05)
    }

    @Test(arguments: gnomeCurves) func kwinsBezier(_ c: [Int]) throws {
        let (x1, y1, x2, y2) = (Double(c[0]) / 100, Double(c[1]) / 100, Double(c[2]) / 100, Double(c[3]) / 100)
        let curve = try Self.shaped(DesktopCurveFormula.kwinBezier.penkitCurve(x1: x1, y1: y1, x2: x2, y2: y2))
        let worst = Self.samples.map { abs(curve.value(at: $0) - Self.cubicBezierY(x: $0, x1, y1, x2, y2)) }.max() ?? 1
        #expect(worst <= 1e-3, "worst \(worst) for \(c)")
    }

    /// QEasingCurve's BezierSpline value: the t where x(t) = x, found as a root of the cubic
    /// a·t³ + b·t² + c·t − x = 0 in [0,1] (Cardano, trigonometric form for three real roots),
    /// then y(t).
    static func cubicBezierY(x: Double, _ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) -> Double {
        let a = 1 + 3 * x1 - 3 * x2, b = 3 * x2 - 6 * x1, c = 3 * x1
        var roots: [Double] = []
        if abs(a) < 1e-12 {
            if abs(b) < 1e-12 { roots = [x / c] } else {
                let d = c * c + 4 * b * x
                if d >= 0 { roots = [(-c + d.squareRoot()) / (2 * b), (-c - d.squareRoot()) / (2 * b)] }
            }
        } else {
            let (p2, p1, p0) = (b / a, c / a, -x / a)
            let q = (3 * p1 - p2 * p2) / 9, r = (9 * p2 * p1 - 27 * p0 - 2 * p2 * p2 * p2) / 54
            let d = q * q * q + r * r
            if d > 0 {
                let s = cbrt(r + d.squareRoot()), u = cbrt(r - d.squareRoot())
                roots = [s + u - p2 / 3]
            } else {
                let theta = acos(max(-1, min(1, r / (-q * q * q).squareRoot())))
                roots = (0..<3).map { 2 * (-q).squareRoot() * cos((theta + 2 * Double.pi * Double($0)) / 3) - p2 / 3 }
            }
        }
        let t = roots.filter { $0 >= -1e-9 && $0 <= 1 + 1e-9 }.min { abs($0 - 0.5) < abs($1 - 0.5) } ?? x
        let u = 1 - t
        return 3 * u * u * t * y1 + 3 * u * t * t * y2 + t * t * t
    }
}

/// mutter 46's meta-bezier.c and translate_pressure_in_impl, transcribed with C's types: gint32
/// coefficients truncated from doubles, 14.18 fixed point with arithmetic shifts, size_t
/// division for the last entry, int prev/next/delta in the gap filling.
struct Mutter46Bezier {
    let n: Int32 = 256
    var points: [Double]

    init(_ curve: [Int]) {
        let precision = Double(256)
        // GSettings' ints / 100 as gdouble, stored in graphene_point_t's floats, then * precision.
        let f = curve.map { Double(Float(Double($0) / 100)) * precision }
        let x0 = 0.0, y0 = 0.0, x3 = precision, y3 = precision
        let cx = Int32(3 * (f[0] - x0)), cy = Int32(3 * (f[1] - y0))
        let bx = Int32(3 * (f[2] - f[0]) - Double(cx)), by = Int32(3 * (f[3] - f[1]) - Double(cy))
        let ax = Int32(x3 - 3 * f[2] + 3 * f[0] - x0), ay = Int32(y3 - 3 * f[3] + 3 * f[1] - y0)
        func mul(_ x: Int32, _ y: Int32) -> Int32 { ((x >> 3) &* (y >> 3)) >> 12 }
        func advance(_ l: Int32) -> (x: Int32, y: Int32) {
            let t = l, t2 = mul(t, t), t3 = mul(mul(t, t), t)
            return ((ax &* t3 &+ bx &* t2 &+ cx &* t) >> 18, (ay &* t3 &+ by &* t2 &+ cy &* t) >> 18)
        }
        let count = Int(n), maxLength = Int32(1 << 18)
        var points = Array(repeating: -1.0, count: count), ts = Array(repeating: -1.0, count: count)
        ts[0] = 0; ts[count - 1] = 1; points[0] = 0
        let last = advance(maxLength)
        points[count - 1] = Double(UInt64(UInt32(bitPattern: last.y)) / UInt64(count))
        var epsilon = 1.0 / Double(count), t = epsilon
        repeat {
            if let missing = (1..<count).first(where: { ts[$0] == -1.0 }) {
                t = ts[missing - 1]
                epsilon /= 2
            }
            while t < 1.0 {
                let pos = advance(Int32(t * Double(maxLength)))
                // int < size_t: a negative x compares as a huge unsigned number.
                if UInt64(UInt32(bitPattern: pos.x)) < UInt64(count) {
                    let x = Int(pos.x)
                    if points[Swift.max(x - 1, 0)] == -1, epsilon > 0.00001 { break }
                    if points[x] == -1 { points[x] = Double(pos.y) / Double(count); ts[x] = t }
                }
                t += epsilon
            }
        } while t < 1.0 && epsilon > 0.00001
        var i = 0
        while i < count - 1 {
            i += 1
            var prev = Int32(points[i - 1])
            if points[i] == -1.0 {
                var nextIndex = i
                var next: Int32
                repeat { nextIndex += 1; next = Int32(points[nextIndex]) } while Double(next) == -1.0 && nextIndex < count - 1
                let delta = Double((next - prev) / Int32(nextIndex - i + 1))
                while i < nextIndex { points[i] = Double(prev) + delta; prev = Int32(points[i]); i += 1 }
            }
        }
        self.points = points
    }

    /// pressure * meta_bezier_lookup(pressure).
    func force(_ pressure: Double) -> Double {
        let pos = Swift.min(Swift.max(pressure, 0), 1)
        let low = Int(Swift.min(Swift.max(Int32(pos * Double(n)), 0), n - 1)), high = Int(Swift.min(Swift.max(Int32(low) + 1, 0), n - 1))
        return pos * (points[low] + (points[high] - points[low]) * (pos - Double(Int32(pos))))
    }
}
