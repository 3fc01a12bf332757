/// What the stage has learned about each pen's predictions, so that one engine serving several
/// pens (two styluses, a stylus and its eraser end, two tablets) gives each its own expected
/// error, lift spread and residual correction rather than a mix of all of them.
struct PenCalibrations: Sendable {
    /// How many pens are remembered besides the current one; the least recently used is forgotten.
    static let remembered = 8

    /// The current pen's, while touching and while hovering.
    var contact = PredictionCalibration()
    var hover = PredictionCalibration()
    /// The current pen's learned correction of contact predictions. A pen not seen before gets
    /// one made anew with the same settings (not copied from a template, so no storage is shared
    /// and none is copied on the next sample).
    var correction: ResidualCorrection
    private var current: Int?
    private var others: [(pen: Int, contact: PredictionCalibration, hover: PredictionCalibration,
                          correction: ResidualCorrection)] = []

    init(correctionMemory: Double, correctionShrinkCount: Double) {
        correction = ResidualCorrection(memory: correctionMemory, shrinkCount: correctionShrinkCount)
        others.reserveCapacity(Self.remembered)
    }

    /// Makes `pen`'s record current, keeping the previous pen's; a pen not seen before starts afresh.
    mutating func select(pen: Int) {
        guard pen != current else { return }
        if let current {
            if others.count == Self.remembered { others.removeFirst() }
            others.append((current, contact, hover, correction))
        }
        current = pen
        if let index = others.firstIndex(where: { $0.pen == pen }) {
            (_, contact, hover, correction) = others.remove(at: index)
        } else {
            contact = PredictionCalibration()
            hover = PredictionCalibration()
            correction = ResidualCorrection(memory: correction.memory, shrinkCount: correction.shrinkCount)
        }
    }

    /// Forgets the current pen's predictions not yet scored (a contact change or a reset).
    mutating func dropPending() {
        contact.dropPending()
        hover.dropPending()
        correction.dropMotion()
    }
}
