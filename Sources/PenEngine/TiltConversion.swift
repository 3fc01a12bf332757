import PenKit

/// Tilt (libinput's tilt_x/tilt_y in degrees) to UIKit-style azimuth and
/// altitude in radians, exactly as the W3C Pointer Events specification
/// converts tiltX/tiltY to azimuthAngle/altitudeAngle, special cases included:
/// straight up is azimuth 0, altitude π/2; any ±90° tilt is altitude 0, with
/// azimuth 0 unless the other tilt is 0. libinput's signs match the spec's
/// (positive x to the right, positive y towards the user).
package enum TiltConversion {
    package static func azimuthAltitude(tiltX: Double, tiltY: Double) -> (azimuth: Double, altitude: Double) {
        let radX = tiltX * Double.pi / 180
        let radY = tiltY * Double.pi / 180
        let atRightAngle = abs(tiltX) == 90 || abs(tiltY) == 90

        var azimuth = 0.0
        if tiltX == 0 {
            if tiltY > 0 { azimuth = Double.pi / 2 } else if tiltY < 0 { azimuth = 3 * Double.pi / 2 }
        } else if tiltY == 0 {
            if tiltX < 0 { azimuth = Double.pi }
        } else if atRightAngle {
            azimuth = 0
        } else {
            azimuth = PenMath.atan2(PenMath.tan(radY), PenMath.tan(radX))
            if azimuth < 0 { azimuth += 2 * Double.pi }
        }

        let altitude: Double
        if atRightAngle {
            altitude = 0
        } else if tiltX == 0 {
            altitude = Double.pi / 2 - abs(radY)
        } else if tiltY == 0 {
            altitude = Double.pi / 2 - abs(radX)
        } else {
            let tanX = PenMath.tan(radX), tanY = PenMath.tan(radY)
            altitude = PenMath.atan(1 / (tanX * tanX + tanY * tanY).squareRoot())
        }
        return (azimuth, altitude)
    }

    /// What a tool without (measured) tilt reports: upright, azimuth 0.
    package static let upright = (azimuth: 0.0, altitude: Double.pi / 2)
}
