import PenKit

/// What the stroke engine runs: the product's stage around penkit's own predictor and its
/// estimate of the raw path, called directly on every frame. The baselines and the lab's
/// alternatives `penkit bench predict` compares it with live in PenEvaluation, as models of their own.
package typealias EnginePrediction = PredictionStage<PenkitPrediction>

extension PredictionStage where Model == PenkitPrediction {
    package init(_ predictor: PenkitPredictor, configuration: PredictionConfiguration = .standard()) {
        self.init(model: PenkitPrediction(predictor, configuration: configuration), configuration: configuration)
    }

    /// The predictor the stage runs.
    package var predictor: PenkitPredictor { model.predictor }

    /// penkit's default: its own predictor with the live path's settings (a 16 ms horizon), for
    /// input that libinput smoothed over its 4 samples (its default) or did not smooth.
    package static func penkit(smoothed: Bool = true) -> Self {
        Self(PenkitPredictor(), configuration: .standard(smoothed: smoothed))
    }
}

/// The engine's side: a frame's sample in, its predicted samples out (position, force,
/// azimuth, altitude predicted; roll and distance held).
extension PredictionStage {
    /// The predicted samples for a frame whose sample is `newest` (`touching`: a contact
    /// frame; hover frames look less far ahead). A stroke's first frames follow the hover
    /// frames before it, so prediction can use the motion of a pen touching down while moving.
    package mutating func predict(after newest: Sample, touching: Bool) -> [Sample] {
        add(PredictionSample(time: newest.time, x: newest.x, y: newest.y, pressure: newest.force,
                             azimuth: newest.azimuth, altitude: newest.altitude, touching: touching))
        return converted(newest)
    }

    /// The newest frame's predictions again at another horizon (s), for clients that asked for
    /// their own; `newest` is that frame's sample. Changes nothing the next frame depends on:
    /// not the frame's own predictions, whatever the horizon, so nothing is learned from it.
    package mutating func repredict(after newest: Sample, horizon: Double) -> [Sample] {
        refreshPredictions(horizon: horizon, primary: false)
        return converted(newest)
    }

    /// How sure the newest `predict` or `repredict` was.
    package var confidence: PredictionConfidence {
        PredictionConfidence(expectedError: expectedError, liftProbability: liftProbability)
    }

    private mutating func converted(_ newest: Sample) -> [Sample] {
        // Reusing the buffer saves an allocation whenever the engine has let go of the last one.
        frameSamples.removeAll(keepingCapacity: true)
        for p in predictions {
            frameSamples.append(Sample(time: p.time, x: p.x, y: p.y, force: p.pressure, azimuth: p.azimuth,
                                       altitude: p.altitude, roll: newest.roll, distance: newest.distance,
                                       estimated: newest.estimated))
        }
        return frameSamples
    }
}
