/// Euclidean length of (dx, dy), as PenEngine's predictors compute it (plain square root of the
/// sum of squares, not hypot), so evaluation figures stay those the engine's own code would give.
func distance(_ dx: Double, _ dy: Double) -> Double { (dx * dx + dy * dy).squareRoot() }
