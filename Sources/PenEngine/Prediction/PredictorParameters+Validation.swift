extension PenkitPredictorParameters {
    /// The longest any of the predictor's times may be: it predicts at most 50 ms ahead from
    /// 32 samples, so a second of history, decay or smoothing is already far past anything useful.
    package static let longestTime: Duration = .seconds(1)

    /// These parameters, or the first one out of its range. Nothing is clamped later.
    package func validated() throws(ParameterError) -> Self {
        let check = ParameterCheck(owner: "penkit")
        try check.time("window", window, longest: Self.longestTime)
        try check.time("decay", decay, longest: Self.longestTime)
        try check.time("ramp", ramp, longest: Self.longestTime, allowZero: true)
        try check.time("motionSmoothing", motionSmoothing, longest: Self.longestTime, allowZero: true)
        try check.number("turnGain", turnGain, from: 0, to: 1)
        try check.number("maxTurnRadians", maxTurnRadians, from: 0, to: Double.pi, unit: " radians")
        try check.number("travelGain", travelGain, from: 0, to: 1)
        try check.number("attributeGain", attributeGain, from: 0, to: 1)
        return self
    }
}
