/// What the stage has learned about each pen's predictions, so that one engine serving several
/// pens (two styluses, a stylus and its eraser end, two tablets) gives each its own expected
/// error, lift spread and residual correction rather than a mix of all of them. Pens are told
/// apart by their whole key (the engine's: `ToolKey`), never by a hash of it: two pens whose
/// hashes collide still keep two records.
struct PenCalibrations<Pen: Hashable & Sendable>: Sendable {
    /// How many pens are remembered besides the current one; the least recently used is forgotten.
    static var remembered: Int { PredictionConstants.rememberedPens }

    /// The current pen's, while touching and while hovering.
    var contact = PredictionCalibration()
    var hover = PredictionCalibration()
    /// The current pen's learned correction of contact predictions. A pen not seen before gets
    /// one made anew with the same settings (not copied from a template, so no storage is shared
    /// and none is copied on the next sample).
    var correction: ResidualCorrection
    private var current: Pen?
    private var others: [(pen: Pen, contact: PredictionCalibration, hover: PredictionCalibration,
                          correction: ResidualCorrection)] = []

    init(correctionMemory: Double, correctionShrinkCount: Double) {
        correction = ResidualCorrection(memory: correctionMemory, shrinkCount: correctionShrinkCount)
        others.reserveCapacity(Self.remembered)
    }

    /// Makes `pen`'s record current, keeping the previous pen's; a pen not seen before starts afresh.
    mutating func select(pen: Pen) {
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
