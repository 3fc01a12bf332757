/// The symmetric 3×3 normal matrix Σw·φφᵀ of a weighted least-squares fit of (1, t, t²),
/// accumulated and solved in closed form so fits never allocate.
struct NormalMatrix: Sendable {
    var a00 = 0.0, a01 = 0.0, a02 = 0.0, a11 = 0.0, a12 = 0.0, a22 = 0.0

    @inline(__always)
    mutating func add(_ phi: SIMD3<Double>, weight w: Double) {
        a00 += w * phi[0] * phi[0]; a01 += w * phi[0] * phi[1]; a02 += w * phi[0] * phi[2]
        a11 += w * phi[1] * phi[1]; a12 += w * phi[1] * phi[2]; a22 += w * phi[2] * phi[2]
    }

    /// Solves for both axes by Cramer's rule; nil when (nearly) singular.
    func solve(_ bx: SIMD3<Double>, _ by: SIMD3<Double>) -> (SIMD3<Double>, SIMD3<Double>)? {
        let m00 = a11 * a22 - a12 * a12, m01 = a02 * a12 - a01 * a22, m02 = a01 * a12 - a02 * a11
        let m11 = a00 * a22 - a02 * a02, m12 = a01 * a02 - a00 * a12, m22 = a00 * a11 - a01 * a01
        let det = a00 * m00 + a01 * m01 + a02 * m02
        // Relative threshold: the matrix scales with t⁴ and t is a few ms.
        guard det != 0 && abs(det) > 1e-12 * abs(a00 * a11 * a22) else { return nil }
        func solve(_ r: SIMD3<Double>) -> SIMD3<Double> {
            SIMD3(m00 * r[0] + m01 * r[1] + m02 * r[2],
                  m01 * r[0] + m11 * r[1] + m12 * r[2],
                  m02 * r[0] + m12 * r[1] + m22 * r[2]) / det
        }
        return (solve(bx), solve(by))
    }

    /// The straight-line fit from the (1, t) block, for two samples.
    func solveLinear(_ bx: SIMD3<Double>, _ by: SIMD3<Double>) -> (SIMD2<Double>, SIMD2<Double>)? {
        let det = a00 * a11 - a01 * a01
        guard abs(det) > 1e-30 else { return nil }
        func solve(_ r: SIMD3<Double>) -> SIMD2<Double> {
            SIMD2((r[0] * a11 - r[1] * a01) / det, (a00 * r[1] - a01 * r[0]) / det)
        }
        return (solve(bx), solve(by))
    }
}
