/// How each ink turns pen input into appearance (the numbers: InkDefinition.swift). Symbols: w the ink's width
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
        let rule = type.definition.size
        let sized = width * (rule.base + rule.force * clamp01(f)) * (1 + rule.tilt * tilt(altitude))
        return rule.speedScale > 0 ? sized / (1 + max(v, 0) / rule.speedScale) : sized
    }

    public func opacity(force f: Double, altitude: Double, azimuth az: Double, roll: Double = 0, speed v: Double) -> Double {
        let rule = type.definition.opacity
        let shown = clamp01(color.alpha) * min(1, rule.base + rule.force * clamp01(f))
        return rule.fadeSpeed > 0 ? shown * (1 - min(max(v, 0) / rule.fadeSpeed, rule.fadeCap)) : shown
    }

    private func tilt(_ altitude: Double) -> Double {
        clamp01(1 - altitude / (Double.pi / 2))
    }
}

@inline(__always) func clamp01(_ x: Double) -> Double { x.isNaN ? 0 : min(max(x, 0), 1) }
