import PenKit

/// The post-filters, in order: this pen's learned share of the travel (ResidualCorrection),
/// then the output damping that smooths the displacement from frame to frame. Each learns only
/// from the frame's own predictions (`primary`), and each spreads its correction over the
/// predicted samples in proportion to how far ahead each lies.
extension PredictionStage {
    /// Adds this pen's learned share of the travel; keeps the tip to learn from when `primary`
    /// and not cut by a predicted lift. (A horizon under a microsecond puts the tip at the
    /// sample's own time: nothing to share out.)
    mutating func applyResidualCorrection(from reference: PredictionSample, primary: Bool) {
        guard reference.touching && calibrations.correction.isEnabled, let last = predictions.last,
              last.time > reference.time else { return }
        let ahead = Double(last.time - reference.time) * 1e-6
        let correction = calibrations.correction.correction(
            displacement: SIMD2(last.x - reference.x, last.y - reference.y), origin: SIMD2(reference.x, reference.y),
            record: primary && !cutByLift ? last.time : nil)
        for k in predictions.indices {
            let share = Double(predictions[k].time - reference.time) * 1e-6 / ahead
            predictions[k].x += correction[0] * share
            predictions[k].y += correction[1] * share
        }
    }

    /// Damps the displacement's shake from frame to frame, learning it when `primary`.
    mutating func applyDamping(from reference: PredictionSample, primary: Bool) {
        guard damping.isEnabled else { return }
        if primary, let last = predictions.last {
            damping.update(displacement: SIMD2(last.x - reference.x, last.y - reference.y),
                           at: reference.time, ahead: Double(last.time - reference.time) * 1e-6)
        }
        let correction = damping.correctionPerSecond
        for k in predictions.indices {
            let ahead = Double(predictions[k].time - reference.time) * 1e-6
            predictions[k].x += correction[0] * ahead
            predictions[k].y += correction[1] * ahead
        }
    }
}
