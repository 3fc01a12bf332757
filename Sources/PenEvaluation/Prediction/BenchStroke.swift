import PenEngine
import PenInput
import PenKit

/// One stroke as a benchmark replays it: the samples a client's input delivers (libinput's
/// smoothed positions under its default), the hover samples just before it in the same
/// proximity (fed, not scored: they let prediction start at pen-down), and the real pen's
/// path, the raw decode of the same events, that every prediction is judged against.
package struct BenchStroke: Sendable {
    package var leadIn: [PredictionSample]
    package var input: Trajectory
    package var truth: Trajectory
    /// Which pen drew it (strokes of one recording share one): the stage keeps what it learns
    /// per pen, as the engine's does per tool.
    package var pen: Int

    package init(leadIn: [PredictionSample] = [], input: Trajectory, truth: Trajectory, pen: Int = 0) {
        self.leadIn = leadIn
        self.input = input
        self.truth = truth
        self.pen = pen
    }

    /// `pen` as the tool the stage keeps its calibration by: each recording a pen of its own
    /// (the number as the serial, bit for bit, so no two pens meet).
    package var tool: ToolKey {
        ToolKey(device: 0, tool: ToolIdentity(type: .pen, serial: UInt64(bitPattern: Int64(pen))))
    }

    /// A stroke judged against its own input (raw input, or synthetic motion).
    package init(_ trajectory: Trajectory) {
        self.init(input: trajectory, truth: trajectory)
    }
}

/// A predictor as the benchmark runs it: how it is made, and how its stage treats the input.
package struct BenchEntrant: Sendable {
    package var name: String
    package var kind: PredictorKind
    package var compensation: SmoothingCompensation
    /// Whether the hover motion before pen-down is fed in.
    package var useLeadIn: Bool
    /// penkit's predictor with other (already validated) parameters, for `penkit bench predict-tune`; nil: `kind`'s defaults.
    package var tunedPenkit: LabPenkitPredictor?
    /// The stage's `.blend` weight.
    package var blendWeight = ExperimentalPrediction.defaultBlendWeight
    /// The stage's `.estimate` jerk noise.
    package var estimationJerkNoise = PredictionConfiguration.defaultEstimationJerkNoise
    /// The stage's output damping (0 Hz: none). Only penkit's entrants are damped by default:
    /// the peers are measured as the field runs them.
    package var dampingMinCutoffHz: Double
    package var dampingBetaHzPerMMPerSecond = PredictionConfiguration.defaultDampingBetaHzPerMMPerSecond
    /// The stage's residual correction (memory zero: none). Only penkit's entrants are corrected by default.
    package var correctionMemory: Duration
    package var correctionShrinkCount = PredictionConfiguration.defaultCorrectionShrinkCount

    package init(name: String, kind: PredictorKind, compensation: SmoothingCompensation, useLeadIn: Bool = true) {
        self.name = name
        self.kind = kind
        self.compensation = compensation
        self.useLeadIn = useLeadIn
        dampingMinCutoffHz = kind == .penkit ? PredictionConfiguration.defaultDampingMinCutoffHz : 0
        correctionMemory = kind == .penkit ? PredictionConfiguration.defaultCorrectionMemory : .zero
    }

    func makePredictor() -> any Predictor {
        if let tunedPenkit { return tunedPenkit }
        return kind.make()
    }

    /// Every shipped predictor as a client of it would run it: peers predict the path they
    /// receive; penkit compensates the smoothing (its default, `SmoothingCompensation.defaultChoice`).
    package static var standard: [BenchEntrant] {
        PredictorKind.allCases.map {
            BenchEntrant(name: $0.rawValue, kind: $0, compensation: $0 == .penkit ? .defaultChoice : .none)
        }
    }

    /// penkit's design alternatives, for measuring what each part brings.
    package static var penkitVariants: [BenchEntrant] {
        get throws(ParameterError) {
            var unsmoothed = PenkitPredictor.Parameters()
            unsmoothed.motionSmoothing = .zero
            let withoutMotionSmoothing = try LabPenkitPredictor(parameters: unsmoothed)
            // Round three's default (7 ms fit, no output damping), and round two's (`pk-before`:
            // also without motion smoothing, the smoothing lag modelled): the baselines the
            // tuning is measured against.
            var longerFit = PenkitPredictor.Parameters()
            longerFit.decay = .milliseconds(7)
            var roundThree = BenchEntrant(name: "pk-round3", kind: .penkit, compensation: .defaultChoice)
            roundThree.tunedPenkit = try LabPenkitPredictor(parameters: longerFit)
            roundThree.dampingMinCutoffHz = 0
            roundThree.correctionMemory = .zero
            longerFit.motionSmoothing = .zero
            var before = BenchEntrant(name: "pk-before", kind: .penkit, compensation: .model)
            before.tunedPenkit = try LabPenkitPredictor(parameters: longerFit)
            before.dampingMinCutoffHz = 0
            before.correctionMemory = .zero
            var still = BenchEntrant(name: "pk-nosmth", kind: .penkit, compensation: .defaultChoice)
            still.tunedPenkit = withoutMotionSmoothing
            // Round four's default: everything as shipped but the residual correction.
            var roundFour = BenchEntrant(name: "pk-round4", kind: .penkit, compensation: .defaultChoice)
            roundFour.correctionMemory = .zero
            return [BenchEntrant(name: "pk-blend", kind: .penkit, compensation: .blend),
                    BenchEntrant(name: "pk-model", kind: .penkit, compensation: .model),
                    BenchEntrant(name: "pk-invert", kind: .penkit, compensation: .invert),
                    BenchEntrant(name: "pk-nocomp", kind: .penkit, compensation: .none),
                    BenchEntrant(name: "pk-nolead", kind: .penkit, compensation: .defaultChoice, useLeadIn: false),
                    still, roundFour, roundThree, before]
        }
    }
}
