/// The raw positions the jitter filter has seen since it last started afresh, newest first, and the
/// least-squares fits it takes over them. A fixed buffer, two SIMD32 vectors (x and y), which any
/// Swift 6 toolchain has: penkitd's input thread runs this for every report, so nothing here
/// allocates.
///
/// Time is counted in reports, the newest at t = 0 and the one `age` reports before it at t = −age
/// (a tablet reports at a fixed rate; JitterFilter says why it counts reports, not seconds).
struct RecentPositions: Sendable {
    static let capacity = SIMD32<Double>.scalarCount

    private var xs = SIMD32<Double>(), ys = SIMD32<Double>()
    private var newest = 0
    /// How many positions are held, at most `capacity`.
    private(set) var count = 0

    mutating func removeAll() {
        count = 0
    }

    mutating func append(_ position: SIMD2<Double>) {
        newest = (newest + 1) % Self.capacity
        xs[newest] = position.x
        ys[newest] = position.y
        count = min(count + 1, Self.capacity)
    }

    /// The position `age` reports before the newest (0: the newest); `age` < `count`.
    subscript(age: Int) -> SIMD2<Double> {
        let index = (newest - age + Self.capacity) % Self.capacity
        return SIMD2(xs[index], ys[index])
    }

    /// The mean of the newest `n` positions (1 ≤ `n` ≤ `count`).
    func mean(of n: Int) -> SIMD2<Double> {
        var sum = SIMD2<Double>.zero
        for age in 0..<n { sum += self[age] }
        return sum / Double(n)
    }

    /// The least-squares quadratic q(t) = q(0) + velocity·t + curvature·t² through the newest `m`
    /// positions (1 ≤ `m` ≤ `count`), its velocity and curvature at the newest report. With 2
    /// positions it is the line through them (curvature 0), with 1 a constant: each degree as far
    /// as the positions determine it.
    ///
    /// It is fitted in the basis 1, u, u² − mean(u²) with u centred on the window: over evenly
    /// spaced reports the three are orthogonal, so each coefficient is one ratio of sums, and the
    /// line's slope is the quadratic's slope at the centre. Positions are taken relative to the
    /// newest, so the sums stay small whatever the tablet's size.
    func quadraticFit(over m: Int) -> (velocity: SIMD2<Double>, curvature: SIMD2<Double>) {
        let centre = Double(m - 1) / 2
        let meanSquare = Double(m * m - 1) / 12
        let origin = self[0]
        var linear = SIMD2<Double>.zero, quadratic = SIMD2<Double>.zero
        var linearNorm = 0.0, quadraticNorm = 0.0
        for age in 0..<m {
            let u = centre - Double(age)
            let w = u * u - meanSquare
            let p = self[age] - origin
            linear += u * p
            linearNorm += u * u
            quadratic += w * p
            quadraticNorm += w * w
        }
        let slopeAtCentre = linearNorm > 0 ? linear / linearNorm : .zero
        let curvature = quadraticNorm > 0 ? quadratic / quadraticNorm : .zero
        // The newest report is at u = centre: q′ there is the slope at the centre plus 2·curvature·centre.
        return (slopeAtCentre + 2 * centre * curvature, curvature)
    }

    /// The least-squares slope (mm/report) of the newest `m` positions (1 ≤ `m` ≤ `count`; 0 for 1).
    func slope(over m: Int) -> SIMD2<Double> {
        let centre = Double(m - 1) / 2
        let origin = self[0]
        var linear = SIMD2<Double>.zero, norm = 0.0
        for age in 0..<m {
            let u = centre - Double(age)
            linear += u * (self[age] - origin)
            norm += u * u
        }
        return norm > 0 ? linear / norm : .zero
    }
}
