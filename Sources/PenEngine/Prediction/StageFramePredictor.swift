import PenKit

/// Plugs a predictor into the stroke engine's `FramePredictor` seam: each contact frame's
/// newest sample goes through a `PredictionStage`, and its predictions come back as the
/// frame's predicted samples (position, force, azimuth, altitude; roll and distance held).
public struct StageFramePredictor<P: Predictor>: FramePredictor {
    public private(set) var stage: PredictionStage<P>
    private var output: [Sample] = []

    public init(_ predictor: P, configuration: PredictionConfiguration = .init()) {
        stage = PredictionStage(predictor: predictor, configuration: configuration)
        output.reserveCapacity(Int(PredictionConfiguration.horizonCap / 0.001) + 2)
    }

    public mutating func reset() { stage.reset() }

    public var confidence: PredictionConfidence {
        PredictionConfidence(expectedError: stage.expectedError, liftProbability: stage.liftProbability)
    }

    public mutating func predict(after recent: ArraySlice<Sample>) -> [Sample] {
        guard let newest = recent.last else { return [] }
        return predict(newest, touching: true)
    }

    /// The stage starts afresh whenever contact changes, and shortens its horizon while hovering.
    public mutating func predictHover(after sample: Sample) -> [Sample] {
        predict(sample, touching: false)
    }

    public mutating func repredict(after newest: Sample, horizon: Double) -> [Sample] {
        stage.refreshPredictions(horizon: horizon)
        return converted(newest)
    }

    private mutating func predict(_ newest: Sample, touching: Bool) -> [Sample] {
        stage.add(PredictionSample(time: newest.time, x: newest.x, y: newest.y, pressure: newest.force,
                                   azimuth: newest.azimuth, altitude: newest.altitude, touching: touching))
        return converted(newest)
    }

    private mutating func converted(_ newest: Sample) -> [Sample] {
        // Reusing the buffer saves an allocation whenever the engine has let go of the last one.
        output.removeAll(keepingCapacity: true)
        for p in stage.predictions {
            output.append(Sample(time: p.time, x: p.x, y: p.y, force: p.pressure, azimuth: p.azimuth,
                                 altitude: p.altitude, roll: newest.roll, distance: newest.distance,
                                 estimated: newest.estimated))
        }
        return output
    }
}

extension StageFramePredictor where P == PenkitPredictor {
    /// penkit's default: its own predictor at the configured horizon (16 ms unless set), for
    /// input that libinput smoothed over `inputSmoothing` samples (4: its default; 1: off).
    public static func penkit(horizon: Double = 0.016, inputSmoothing: Int = 4) -> Self {
        StageFramePredictor(PenkitPredictor(), configuration: PredictionConfiguration(
            horizon: horizon, inputSmoothing: inputSmoothing))
    }
}
