/// mutter 46's pressure curve as its source computes it (src/backends/native/meta-bezier.c and
/// meta_input_device_tool_native_translate_pressure_in_impl), to write it as penkit's points:
/// the control points go through graphene's floats, are scaled by the 256 entries into integer
/// coefficients, the curve is walked in 14.18 fixed point filling each entry at the first t whose
/// x lands on it (halving the step when one is skipped), the gaps are filled by its integer
/// interpolation, and the force for p is p · (entry[i] + (entry[i+1] − entry[i]) · p), i = ⌊256p⌋.
/// Integer truncations are kept where mutter has them: they are part of the curve users feel.
struct MutterBezierTable {
    static let count = 256
    /// The sampled entries, as meta_bezier_sample leaves them.
    let entries: [Double]

    init(x1: Double, y1: Double, x2: Double, y2: Double) {
        let n = Double(Self.count)
        // graphene_point_t keeps floats; meta_bezier_init scales by the precision.
        let (sx1, sy1) = (Double(Float(x1)) * n, Double(Float(y1)) * n)
        let (sx2, sy2) = (Double(Float(x2)) * n, Double(Float(y2)) * n)
        let cx = Int(3 * sx1), cy = Int(3 * sy1)
        let bx = Int(3 * (sx2 - sx1) - Double(cx)), by = Int(3 * (sy2 - sy1) - Double(cy))
        let ax = Int(n - 3 * sx2 + 3 * sx1), ay = Int(n - 3 * sy2 + 3 * sy1)
        func mul(_ a: Int, _ b: Int) -> Int { ((a >> 3) * (b >> 3)) >> 12 }
        func at(_ t: Int) -> (x: Int, y: Int) {
            let t2 = mul(t, t), t3 = mul(t2, t)
            return ((ax * t3 + bx * t2 + cx * t) >> 18, (ay * t3 + by * t2 + cy * t) >> 18)
        }
        let maxLength = 1 << 18, count = Self.count, minEpsilon = 0.00001
        var points = [Double](repeating: -1, count: count)
        var ts = [Double](repeating: -1, count: count)
        ts[0] = 0
        ts[count - 1] = 1
        points[0] = 0
        // Integer division, as mutter writes it: pos.y / N.
        points[count - 1] = Double(at(maxLength).y / count)
        var epsilon = 1.0 / n
        var t = epsilon
        repeat {
            for i in 1..<count where ts[i] == -1 {
                t = ts[i - 1]
                epsilon /= 2
                break
            }
            while t < 1 {
                let pos = at(Int(t * Double(maxLength)))
                if pos.x >= 0 && pos.x < count {
                    if points[max(pos.x - 1, 0)] == -1 && epsilon > minEpsilon { break }
                    if points[pos.x] == -1 {
                        points[pos.x] = Double(pos.y) / n
                        ts[pos.x] = t
                    }
                }
                t += epsilon
            }
        } while t < 1 && epsilon > minEpsilon
        // The gaps, with mutter's int prev/next and integer delta.
        var i = 0
        while i < count - 1 {
            i += 1
            var prev = Int(points[i - 1])
            if points[i] == -1 {
                var nextIndex = i, next: Int
                repeat {
                    nextIndex += 1
                    next = Int(points[nextIndex])
                } while next == -1 && nextIndex < count - 1
                let delta = Double((next - prev) / (nextIndex - i + 1))
                while i < nextIndex {
                    points[i] = Double(prev) + delta
                    prev = Int(points[i])
                    i += 1
                }
            }
        }
        entries = points
    }

    /// mutter's force for pressure `p`: p · meta_bezier_lookup(p).
    func force(_ p: Double) -> Double {
        let p = min(max(p, 0), 1)
        let low = min(max(Int(p * Double(Self.count)), 0), Self.count - 1)
        let high = min(low + 1, Self.count - 1)
        return p * (entries[low] + (entries[high] - entries[low]) * (p - p.rounded(.towardZero)))
    }

    /// The force as points: within each entry's 1/256 it is p·(a + b·p), a parabola so flat that
    /// a straight line strays by at most b/(8·256²) ≤ 2e-6; at each entry's start it may jump,
    /// written as two points at one x.
    func knots() -> [(x: Double, y: Double)] {
        let n = Double(Self.count)
        func piece(_ i: Int, _ p: Double) -> Double {
            let high = min(i + 1, Self.count - 1)
            return p * (entries[i] + (entries[high] - entries[i]) * p)
        }
        var out: [(x: Double, y: Double)] = [(0, piece(0, 0))]
        for i in 1..<Self.count {
            let x = Double(i) / n
            let before = piece(i - 1, x), after = piece(i, x)
            if abs(before - after) > 1e-9 { out.append((x, before)) }
            out.append((x, after))
        }
        out.append((1, piece(Self.count - 1, 1)))
        return out
    }
}
