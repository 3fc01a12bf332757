/// Why the prediction stage forgets: one event that every part of the stage hears, each part
/// saying once, below, what that event makes stale for it. (Each cause used to list the parts
/// to reset by hand, in three places that had to agree.)
package enum PredictionReset: Sendable, Hashable {
    /// A new proximity, of `pen` when named (nil: the current pen's): libinput restarts its
    /// smoothing and the earlier motion says nothing; what the stage learned about `pen` becomes current.
    case proximity(ToolKey?)
    /// Time went backwards: nothing before can be trusted, as at a new proximity of the same pen.
    case timeWentBackwards
    /// An input gap longer than `gapReset`: the motion is stale, but libinput keeps its
    /// smoothing history across a gap, so the stage keeps its estimate of it too.
    case gap
    /// The pen touched down or lifted: libinput restarts its smoothing; the motion carries on.
    case contactChange

    /// Whether the stage forgets everything it holds about the stroke (not what it learned about the pen).
    var startsAfresh: Bool {
        switch self {
        case .proximity, .timeWentBackwards: return true
        case .gap, .contactChange: return false
        }
    }
}

extension Predictor {
    /// A contact change keeps what a predictor can use of the motion (`contactChanged()`);
    /// every other event forgets it.
    package mutating func reset(for event: PredictionReset) {
        if event == .contactChange { contactChanged() } else { reset() }
    }
}

extension ReportInterval {
    /// The interval is a property of the motion: it goes with it, but not at a contact change.
    mutating func reset(for event: PredictionReset) {
        if event != .contactChange { reset() }
    }
}

extension SmoothingRecovery {
    /// Follows libinput's history (restarted at a new proximity, kept across a gap), but a
    /// contact change only refills the history: the estimated motion carries on.
    package mutating func reset(for event: PredictionReset) {
        switch event {
        case .proximity, .timeWentBackwards: reset()
        case .contactChange: restartHistory()
        case .gap: break
        }
    }
}

extension OutputDamping {
    /// The damped displacement belongs to the motion: forgotten with it, kept at a contact change.
    mutating func reset(for event: PredictionReset) {
        if event != .contactChange { reset() }
    }
}

extension PenCalibrations where Pen == ToolKey {
    /// Predictions not yet scored go with the motion or the contact they were made in (after a
    /// gap only the correction's: the calibration's still meet the pen); what was learned stays,
    /// and a named pen's record becomes current.
    mutating func reset(for event: PredictionReset) {
        switch event {
        case .proximity(let pen):
            dropPending()
            if let pen { select(pen: pen) }
        case .timeWentBackwards, .contactChange: dropPending()
        case .gap: correction.dropMotion()
        }
    }
}
