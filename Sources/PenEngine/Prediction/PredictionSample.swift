/// The minimal pen state a predictor reads and writes: time, position in mm, force and
/// orientation. Kept separate from the engine's richer sample so predictors stay small,
/// testable on synthetic motion, and free of anything but arithmetic.
package struct PredictionSample: Sendable, Hashable {
    /// Microseconds (kernel clock for real input).
    package var time: UInt64
    /// Millimetres from the top-left of the sensor.
    package var x: Double
    package var y: Double
    /// Normalized force in [0, 1].
    package var pressure: Double
    /// Radians in [0, 2π), W3C Pointer Events convention.
    package var azimuth: Double
    /// Radians in [0, π/2]; π/2 is a pen perpendicular to the surface.
    package var altitude: Double
    /// Tip in contact (false: hovering).
    package var touching: Bool
    /// True for samples a predictor made; real samples supersede them.
    package var predicted: Bool
    /// How x and y were observed: the mean of `smoothingWindow` history entries holding this
    /// sample's and the `smoothedSamples - 1` real samples before it, the oldest of them
    /// repeated to fill the window (libinput's filter after a reset). 1 and 1: the raw position.
    /// Set only by the lab (PenEvaluation's `LabPrediction`, `.model`), for a predictor that models the
    /// smoothing lag itself; the product's stage hands its predictor raw positions, 1 and 1.
    package var smoothingWindow: UInt8 = 1
    package var smoothedSamples: UInt8 = 1

    package init(time: UInt64, x: Double, y: Double, pressure: Double = 0,
                azimuth: Double = 0, altitude: Double = .pi / 2,
                touching: Bool = true, predicted: Bool = false) {
        self.time = time
        self.x = x
        self.y = y
        self.pressure = pressure
        self.azimuth = azimuth
        self.altitude = altitude
        self.touching = touching
        self.predicted = predicted
    }

    /// Builds a sample from libinput's tilt (degrees), converted as the engine converts it
    /// (`TiltConversion`, the W3C Pointer Events conversion).
    package init(time: UInt64, x: Double, y: Double, pressure: Double,
                tiltX: Double, tiltY: Double, touching: Bool) {
        let angles = TiltConversion.azimuthAltitude(tiltX: tiltX, tiltY: tiltY)
        self.init(time: time, x: x, y: y, pressure: pressure,
                  azimuth: angles.azimuth, altitude: angles.altitude, touching: touching)
    }
}
