import PenKit

/// Every tunable of the stroke engine, with its unit. Checked once where it is made
/// (`validated()`): nothing is clamped later.
public struct EngineConfiguration: Sendable, Hashable {
    public enum PressureSource: Sendable, Hashable {
        /// Pressure comes with position in each tablet event (libinput).
        case inBand
        /// Pressure comes in a second stream (`StrokeEngine.handlePressure`);
        /// in-band pressure is ignored. A report matches the contact sample
        /// nearest its timestamp within `matchTolerance`.
        case separate(matchTolerance: Duration)
    }

    public var pressureSource: PressureSource = .inBand
    /// How long a sample waits for a late value before "no update coming", after the sample.
    public var updateTimeout: Duration = .milliseconds(100)
    /// How long after a stroke ends (pen up) it waits at most for the readings of a pressure
    /// source still due, whatever latency the source stated.
    public var readingsAfterEnd: Duration = .seconds(5)
    /// How long after proximity-in a tool that declares tilt may go without
    /// changing it before the engine concludes that no real tilt is coming.
    public var tiltTimeout: Duration = .milliseconds(100)
    /// Force assumed while the real one is unknown (no pressure axis, or not arrived yet
    /// and no earlier value in this stroke).
    public var defaultForce: Double = 0.5
    /// Samples kept per stroke; later samples of a longer stroke are still
    /// sent as frames but left out of the finalized stroke (counted in `droppedSamples`).
    public var maxSamplesPerStroke: Int = 1 << 20
    /// Samples expecting a tilt update kept per tool while hovering.
    public var maxHoverSamplesAwaitingTilt: Int = 4096
    /// Ink of the strokes each tool type draws. The eraser end of a pen draws eraser strokes, never ink.
    public var inks: [ToolType: Ink] = [.pencil: Ink(.pencil), .brush: Ink(.marker), .airbrush: Ink(.marker),
                                        .eraser: Ink(.eraser)]
    public var defaultInk: Ink = Ink(.pen)
    /// Ink of a particular tool, by the serial its tablet reports (0 is never a serial); wins over `inks`.
    public var serialInks: [UInt64: Ink] = [:]
    /// How each tool type feels (pressure curve, thresholds, hover cut-off).
    public var feels: [ToolType: PenFeel] = [:]
    /// How one tool feels, by serial, laid over its type's feel key by key.
    public var serialFeels: [UInt64: PenFeel] = [:]
    /// Where each device's positions go, by device id; devices left out keep sensor millimetres.
    public var mappings: [UInt32: DeviceMapping] = [:]

    public init() {}

    /// The longest any timeout or tolerance may be: a late value 10 s after its sample is not late, it is lost.
    public static let longestWait: Duration = .seconds(10)

    /// This configuration, or the first setting out of its range, named with its unit.
    public func validated() throws(ParameterError) -> EngineConfiguration {
        let check = ParameterCheck(owner: nil)
        try check.time("updateTimeout", updateTimeout, longest: Self.longestWait)
        try check.time("tiltTimeout", tiltTimeout, longest: Self.longestWait)
        try check.time("readingsAfterEnd", readingsAfterEnd, longest: Self.longestWait)
        if case .separate(let tolerance) = pressureSource {
            try check.time("pressure matchTolerance", tolerance, longest: Self.longestWait, allowZero: true)
        }
        try check.force("defaultForce", defaultForce)
        try check.count("maxSamplesPerStroke", maxSamplesPerStroke, atLeast: 1)
        try check.count("maxHoverSamplesAwaitingTilt", maxHoverSamplesAwaitingTilt, atLeast: 1)
        return self
    }

    /// The feel of one tool: its type's, with its serial's fields over it.
    public func feel(for tool: ToolIdentity) -> PenFeel {
        let byType = feels[tool.type] ?? PenFeel()
        guard tool.serial != 0, let own = serialFeels[tool.serial] else { return byType }
        return byType.overlaid(by: own)
    }

    public func ink(for tool: ToolType) -> Ink { inks[tool] ?? defaultInk }

    /// The tool's own ink when its serial has one, else its type's. An eraser stays an
    /// eraser whatever the serial's ink: the eraser end never draws.
    public func ink(for tool: ToolIdentity) -> Ink {
        let byType = ink(for: tool.type)
        guard tool.serial != 0, let own = serialInks[tool.serial] else { return byType }
        return (tool.type == .eraser) == own.isEraser ? own : byType
    }
}

/// A pressure value from a second source: the normalized pressure the pen
/// measured at `time` (µs, the digitizer's clock), on `device`.
public struct PressureReport: Sendable, Hashable {
    public var device: UInt32
    public var time: UInt64
    public var pressure: Double

    public init(device: UInt32 = 0, time: UInt64, pressure: Double) {
        self.device = device
        self.time = time
        self.pressure = pressure
    }
}
