import PenKit

/// Every tunable of the stroke engine, with its unit. Checked once where it is made
/// (`validated()`): nothing is clamped later.
package struct EngineConfiguration: Sendable, Hashable {
    package enum PressureSource: Sendable, Hashable {
        /// Pressure comes with position in each tablet event (libinput).
        case inBand
        /// Pressure comes in a second stream (`StrokeEngine.handlePressure`);
        /// in-band pressure is ignored. A report matches the contact sample
        /// nearest its timestamp within `matchTolerance`.
        case separate(matchTolerance: Duration)
    }

    package var pressureSource: PressureSource = .inBand
    /// How long a sample waits for a late value before "no update coming", after the sample.
    package var updateTimeout: Duration = .milliseconds(100)
    /// How long after a stroke ends (pen up) it waits at most for the readings of a pressure
    /// source still due, whatever latency the source stated.
    package var readingsAfterEnd: Duration = .seconds(5)
    /// How long after proximity-in a tool that declares tilt may go without
    /// changing it before the engine concludes that no real tilt is coming.
    package var tiltTimeout: Duration = .milliseconds(100)
    /// Force assumed while the real one is unknown (no pressure axis, or not arrived yet
    /// and no earlier value in this stroke).
    package var defaultForce: Double = 0.5
    /// Samples kept per stroke; later samples of a longer stroke are still
    /// sent as frames but left out of the finalized stroke (counted in `droppedSamples`).
    package var maxSamplesPerStroke: Int = 1 << 20
    /// Samples expecting a tilt update kept per tool while hovering.
    package var maxHoverSamplesAwaitingTilt: Int = 4096
    /// Ink of the strokes each tool type draws. The eraser end of a pen draws eraser strokes, never ink.
    package var inks: [ToolType: Ink] = [.pencil: Ink(.pencil), .brush: Ink(.marker), .airbrush: Ink(.marker),
                                        .eraser: Ink(.eraser)]
    package var defaultInk: Ink = Ink(.pen)
    /// Ink of a particular tool, by the serial its tablet reports (0 is never a serial); wins over `inks`.
    package var serialInks: [UInt64: Ink] = [:]
    /// How each tool type feels (pressure curve, thresholds, hover cut-off).
    package var feels: [ToolType: PenFeel] = [:]
    /// How one tool feels, by serial, laid over its type's feel key by key.
    package var serialFeels: [UInt64: PenFeel] = [:]
    /// Where each device's positions go, by device id; devices left out keep sensor millimetres.
    package var mappings: [UInt32: DeviceMapping] = [:]

    package init() {}

    /// The longest any timeout or tolerance may be: a late value 10 s after its sample is not late, it is lost.
    package static let longestWait: Duration = .seconds(10)

    /// This configuration, or the first setting out of its range, named with its unit.
    package func validated() throws(ParameterError) -> EngineConfiguration {
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
    package func feel(for tool: ToolIdentity) -> PenFeel {
        let byType = feels[tool.type] ?? PenFeel()
        guard tool.serial != 0, let own = serialFeels[tool.serial] else { return byType }
        return byType.overlaid(by: own)
    }

    package func ink(for tool: ToolType) -> Ink { inks[tool] ?? defaultInk }

    /// The tool's own ink when its serial has one, else its type's. An eraser stays an
    /// eraser whatever the serial's ink: the eraser end never draws.
    package func ink(for tool: ToolIdentity) -> Ink {
        let byType = ink(for: tool.type)
        guard tool.serial != 0, let own = serialInks[tool.serial] else { return byType }
        return (tool.type == .eraser) == own.isEraser ? own : byType
    }
}

/// A pressure value from a second source: the normalized pressure the pen
/// measured at `time` (µs, the digitizer's clock), on `device`.
package struct PressureReport: Sendable, Hashable {
    package var device: UInt32
    package var time: UInt64
    package var pressure: Double

    package init(device: UInt32 = 0, time: UInt64, pressure: Double) {
        self.device = device
        self.time = time
        self.pressure = pressure
    }
}
