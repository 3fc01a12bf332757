/// How each ink turns pen input into appearance. Symbols: w the ink's width
/// (mm), α its color's alpha, f force [0, 1], v speed (mm/s), az azimuth,
/// roll the barrel roll (radians, 0 without a rotation axis),
/// tilt = 1 − altitude/(π/2) (0 upright, 1 lying flat).
///
/// | ink    | size (mm)                                              | opacity                     |
/// |--------|--------------------------------------------------------|-----------------------------|
/// | pen    | w · (0.25 + 1.5 f) / (1 + v/1000)                      | α                           |
/// | pencil | w · (0.5 + f) · (1 + 3 tilt)                           | α · min(1, 0.1 + 1.2 f)     |
/// | marker | w · (0.5 + 0.5 |cos(az + roll − π/4)|) · (0.8 + 0.4 f) | α · 0.6 · (1 − min(v/2000, 0.5)) |
/// | eraser | w                                                      | 0                           |
///
/// So a pen draws its nominal width at half pressure and thins when it moves
/// fast; a pencil darkens with pressure and widens as it is laid on its side;
/// a marker's chisel is widest when the pen leans (or the barrel is turned) to
/// 45° from the x axis, and streaks lighter when drawn fast. A device without
/// tilt reports altitude π/2 and azimuth 0, so tilt is 0 and the marker's
/// chisel sits at |cos(π/4)|. Inputs not in a row have no effect on that ink.
extension Ink {
    public func size(force f: Double, altitude: Double, azimuth az: Double, roll: Double = 0, speed v: Double) -> Double {
        let force = clamp01(f), speed = max(v, 0)
        switch type {
        case .pen:
            return width * (0.25 + 1.5 * force) / (1 + speed / 1000)
        case .pencil:
            return width * (0.5 + force) * (1 + 3 * tilt(altitude))
        case .marker:
            let chisel = abs(PenMath.cos(az + roll - Double.pi / 4))
            return width * (0.5 + 0.5 * chisel) * (0.8 + 0.4 * force)
        case .eraser:
            return width
        }
    }

    public func opacity(force f: Double, altitude: Double, azimuth az: Double, roll: Double = 0, speed v: Double) -> Double {
        let alpha = clamp01(color.alpha)
        switch type {
        case .pen:
            return alpha
        case .pencil:
            return alpha * min(1, 0.1 + 1.2 * clamp01(f))
        case .marker:
            return alpha * 0.6 * (1 - min(max(v, 0) / 2000, 0.5))
        case .eraser:
            return 0
        }
    }

    private func tilt(_ altitude: Double) -> Double {
        clamp01(1 - altitude / (Double.pi / 2))
    }
}

@inline(__always) func clamp01(_ x: Double) -> Double { x.isNaN ? 0 : min(max(x, 0), 1) }
