import Foundation

/// The minimal pen state a predictor reads and writes: time, position in mm, force and
/// orientation. Kept separate from the engine's richer sample so predictors stay small,
/// testable on synthetic motion, and free of anything but arithmetic.
public struct PredictionSample: Sendable, Hashable {
    /// Microseconds (kernel clock for real input).
    public var time: UInt64
    /// Millimetres from the top-left of the sensor.
    public var x: Double
    public var y: Double
    /// Normalized force in [0, 1].
    public var pressure: Double
    /// Radians in [0, 2π), W3C Pointer Events convention.
    public var azimuth: Double
    /// Radians in [0, π/2]; π/2 is a pen perpendicular to the surface.
    public var altitude: Double
    /// Tip in contact (false: hovering).
    public var touching: Bool
    /// True for samples a predictor made; real samples supersede them.
    public var predicted: Bool
    /// How x and y were observed: the mean of `smoothingWindow` history entries holding this
    /// sample's and the `smoothedSamples - 1` real samples before it, the oldest of them
    /// repeated to fill the window (libinput's filter after a reset). 1 and 1: the raw position.
    /// Set by `PredictionStage` for predictors that model the smoothing lag themselves.
    public var smoothingWindow: UInt8 = 1
    public var smoothedSamples: UInt8 = 1

    public init(time: UInt64, x: Double, y: Double, pressure: Double = 0,
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

    /// Builds a sample from libinput's tilt (degrees), converted as W3C Pointer Events do.
    public init(time: UInt64, x: Double, y: Double, pressure: Double,
                tiltX: Double, tiltY: Double, touching: Bool) {
        let orientation = PenOrientation(tiltXDegrees: tiltX, tiltYDegrees: tiltY)
        self.init(time: time, x: x, y: y, pressure: pressure,
                  azimuth: orientation.azimuth, altitude: orientation.altitude, touching: touching)
    }
}

/// Azimuth and altitude from tilt, per the W3C Pointer Events conversion.
public struct PenOrientation: Sendable, Hashable {
    public var azimuth: Double
    public var altitude: Double

    public init(tiltXDegrees: Double, tiltYDegrees: Double) {
        let tx = tiltXDegrees * .pi / 180
        let ty = tiltYDegrees * .pi / 180
        let halfPi = Double.pi / 2
        // The spec's special cases: a tilt of ±90° lies flat, where tan() is unbounded.
        if abs(tiltXDegrees) >= 90 || abs(tiltYDegrees) >= 90 {
            altitude = 0
            if tiltXDegrees >= 90 { azimuth = 0 }
            else if tiltXDegrees <= -90 { azimuth = .pi }
            else if tiltYDegrees >= 90 { azimuth = halfPi }
            else { azimuth = 3 * halfPi }
            return
        }
        if tiltXDegrees == 0 && tiltYDegrees == 0 {
            azimuth = 0
            altitude = halfPi
            return
        }
        let tanX = tan(tx), tanY = tan(ty)
        var a = atan2(tanY, tanX)
        if a < 0 { a += 2 * .pi }
        azimuth = a
        altitude = atan(1 / (tanX * tanX + tanY * tanY).squareRoot())
    }
}
