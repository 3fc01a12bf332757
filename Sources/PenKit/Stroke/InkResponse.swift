/// How each ink turns pen input into appearance. Symbols: w the ink's width
/// (mm), α its color's alpha, f force [0, 1], v speed (mm/s), az azimuth,
/// roll the barrel roll (radians, 0 without a rotation axis),
/// tilt = 1 − altitude/(π/2) (0 upright, 1 lying flat).
///
/// | ink         | size (mm), the nib's width            | opacity                          |
/// |-------------|---------------------------------------|----------------------------------|
/// | pen         | w · (0.25 + 1.5 f) / (1 + v/1000)     | α                                |
/// | pencil      | w · (0.5 + f) · (1 + 3 tilt)          | α · min(1, 0.1 + 1.2 f)          |
/// | marker      | w · (0.8 + 0.4 f)                     | α · 0.6 · (1 − min(v/2000, 0.5)) |
/// | monoline    | w                                     | α                                |
/// | fountainPen | w · (0.4 + 1.2 f)                     | α                                |
/// | watercolor  | w · (0.6 + 0.8 f) · (1 + tilt)        | α · (0.25 + 0.35 f)              |
/// | crayon      | w · (0.7 + 0.6 f) · (1 + 2 tilt)      | α · min(1, 0.5 + 0.6 f)          |
/// | eraser      | w                                     | 0                                |
///
/// The nib's height is `nibAspect` times its size (Ink+Nib.swift): the marker's
/// chisel and the fountain pen's italic nib are held at a fixed angle, turned by
/// the barrel's roll, so their width follows the stroke's direction and the roll
/// (StrokeOutline), not the pen's azimuth.
/// So a pen draws its nominal width at half pressure and thins when it moves
/// fast; a pencil darkens with pressure and widens as it is laid on its side;
/// a marker streaks lighter when drawn fast; a fountain pen swells with pressure;
/// watercolour widens and deepens with pressure and spreads when tilted; a crayon
/// darkens with pressure and widens on its side. Inputs not in a row have no
/// effect on that ink; azimuth and roll change no size or opacity (roll turns the marker's and
/// the fountain pen's nib instead: StrokeOutline).
extension Ink {
    public func size(force f: Double, altitude: Double, azimuth az: Double, roll: Double = 0, speed v: Double) -> Double {
        let force = clamp01(f), speed = max(v, 0)
        switch type {
        case .pen:
            return width * (0.25 + 1.5 * force) / (1 + speed / 1000)
        case .pencil:
            return width * (0.5 + force) * (1 + 3 * tilt(altitude))
        case .marker:
            return width * (0.8 + 0.4 * force)
        case .monoline, .eraser:
            return width
        case .fountainPen:
            return width * (0.4 + 1.2 * force)
        case .watercolor:
            return width * (0.6 + 0.8 * force) * (1 + tilt(altitude))
        case .crayon:
            return width * (0.7 + 0.6 * force) * (1 + 2 * tilt(altitude))
        }
    }

    public func opacity(force f: Double, altitude: Double, azimuth az: Double, roll: Double = 0, speed v: Double) -> Double {
        let alpha = clamp01(color.alpha), force = clamp01(f)
        switch type {
        case .pen, .monoline, .fountainPen:
            return alpha
        case .pencil:
            return alpha * min(1, 0.1 + 1.2 * force)
        case .marker:
            return alpha * 0.6 * (1 - min(max(v, 0) / 2000, 0.5))
        case .watercolor:
            return alpha * (0.25 + 0.35 * force)
        case .crayon:
            return alpha * min(1, 0.5 + 0.6 * force)
        case .eraser:
            return 0
        }
    }

    private func tilt(_ altitude: Double) -> Double {
        clamp01(1 - altitude / (Double.pi / 2))
    }
}

@inline(__always) func clamp01(_ x: Double) -> Double { x.isNaN ? 0 : min(max(x, 0), 1) }
