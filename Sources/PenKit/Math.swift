// Elementary functions from the C library that Swift links anyway, so PenKit
// and PenEngine need neither Foundation nor a C module of the project's for them.
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

@inline(__always) private func libmCos(_ x: Double) -> Double { cos(x) }
@inline(__always) private func libmSin(_ x: Double) -> Double { sin(x) }
@inline(__always) private func libmTan(_ x: Double) -> Double { tan(x) }
@inline(__always) private func libmAtan(_ x: Double) -> Double { atan(x) }
@inline(__always) private func libmAtan2(_ y: Double, _ x: Double) -> Double { atan2(y, x) }
@inline(__always) private func libmPow(_ x: Double, _ y: Double) -> Double { pow(x, y) }

package enum PenMath {
    @inline(__always) package static func cos(_ x: Double) -> Double { libmCos(x) }
    @inline(__always) package static func sin(_ x: Double) -> Double { libmSin(x) }
    @inline(__always) package static func tan(_ x: Double) -> Double { libmTan(x) }
    @inline(__always) package static func atan(_ x: Double) -> Double { libmAtan(x) }
    @inline(__always) package static func atan2(_ y: Double, _ x: Double) -> Double { libmAtan2(y, x) }
    @inline(__always) package static func pow(_ x: Double, _ y: Double) -> Double { libmPow(x, y) }

    /// Tilt in degrees back from azimuth/altitude in radians (W3C Pointer Events:
    /// tan tiltX = cos az / tan alt, tan tiltY = sin az / tan alt).
    package static func tiltDegrees(azimuth: Double, altitude: Double) -> (x: Double, y: Double) {
        let cosAlt = cos(altitude), sinAlt = sin(altitude)
        let degrees = 180 / Double.pi
        return (atan2(cos(azimuth) * cosAlt, sinAlt) * degrees, atan2(sin(azimuth) * cosAlt, sinAlt) * degrees)
    }
}

@inline(__always) func cosine(_ x: Double) -> Double { PenMath.cos(x) }
@inline(__always) func sine(_ x: Double) -> Double { PenMath.sin(x) }
