/// A setting out of its range, the engine's or prediction's: the message names it, its unit
/// and the range allowed. (The engine and prediction had one type each, of the same shape.)
package struct ParameterError: Error, CustomStringConvertible, Equatable {
    package let description: String
    package init(_ description: String) { self.description = description }
}

/// The one validator every parameter type checks its ranges with (EngineConfiguration,
/// PredictionConfiguration, the predictors' Parameters): each error starts with the owner's
/// name, if any, and the parameter's.
package struct ParameterCheck {
    /// Named before the parameter in each message ("prediction horizon …"); nil: the parameter alone.
    let owner: String?

    package init(owner: String?) { self.owner = owner }

    private func named(_ name: String) -> String { owner.map { "\($0) \(name)" } ?? name }

    package func time(_ name: String, _ value: Duration, longest: Duration, allowZero: Bool = false) throws(ParameterError) {
        guard value <= longest, allowZero ? value >= .zero : value > .zero else {
            throw ParameterError("\(named(name)) must be \(allowZero ? "from 0" : "over 0") to \(longest), not \(value)")
        }
    }

    package func number(_ name: String, _ value: Double, from low: Double, to high: Double, unit: String = "") throws(ParameterError) {
        guard value.isFinite, (low...high).contains(value) else {
            throw ParameterError("\(named(name)) must be from \(low) to \(high)\(unit), not \(value)")
        }
    }

    /// A finite value strictly above `low`, with no upper bound of its own.
    package func number(_ name: String, _ value: Double, over low: Double, unit: String = "") throws(ParameterError) {
        guard value.isFinite, value > low else {
            throw ParameterError("\(named(name)) must be a finite value over \(low)\(unit), not \(value)")
        }
    }

    /// A finite value strictly above `low`, at most `high`.
    package func number(_ name: String, _ value: Double, over low: Double, to high: Double, unit: String = "") throws(ParameterError) {
        guard value.isFinite, value > low, value <= high else {
            throw ParameterError("\(named(name)) must be over \(low) to \(high)\(unit), not \(value)")
        }
    }

    package func count(_ name: String, _ value: Int, from low: Int, to high: Int) throws(ParameterError) {
        guard (low...high).contains(value) else {
            throw ParameterError("\(named(name)) must be from \(low) to \(high), not \(value)")
        }
    }

    /// A count with no upper bound of its own.
    package func count(_ name: String, _ value: Int, atLeast low: Int) throws(ParameterError) {
        guard value >= low else { throw ParameterError("\(named(name)) must be at least \(low), not \(value)") }
    }

    /// A force in [0, 1].
    func force(_ name: String, _ value: Double) throws(ParameterError) {
        guard value.isFinite, (0...1).contains(value) else {
            throw ParameterError("\(named(name)) must be a force from 0 to 1, not \(value)")
        }
    }
}
