#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import PenKit

/// libinput's conversions from device units, each taking the axis's current value.
enum AxisMath {
    static func slider(_ a: AbsInfo, _ v: Int32) -> Double {
        ((Double(v) - Double(a.minimum)) / (Double(a.maximum) - Double(a.minimum))) * 2 - 1
    }

    static func distance(_ a: AbsInfo, _ v: Int32) -> Double {
        (Double(v) - Double(a.minimum)) / (Double(a.maximum) - Double(a.minimum))
    }

    /// Scaled so the lower threshold (the offset, once one is detected) is 0 pressure.
    static func pressure(_ a: AbsInfo, _ v: Int32, lowerThreshold base: Int32) -> Double {
        max(0.0, (Double(v) - Double(base)) / (Double(a.maximum) - Double(base)))
    }

    /// Degrees: resolution in units/radian when the range is centred on 0, else Wacom's
    /// physical ±64° spread over the range.
    static func tilt(_ a: AbsInfo, _ v: Int32) -> Double {
        if a.resolution != 0 && a.maximum > 0 && a.minimum < 0 {
            return 180.0 / Double.pi * Double(v) / Double(a.resolution)
        }
        let unit = (Double(v) - Double(a.minimum)) / (Double(a.maximum) - Double(a.minimum))
        return (unit * 2 - 1) * 64
    }

    /// ABS_Z (the art pen's barrel): [0, 360) with 0 when the buttons point east.
    static func artPenRotation(_ a: AbsInfo, _ v: Int32) -> Double {
        let range = Double(a.maximum) - Double(a.minimum) + 1
        return fmod((Double(v) - Double(a.minimum)) / range * 360.0 + 90, 360.0)
    }

    /// A mouse or lens cursor reports rotation through its tilt axes, with a 5° hardware offset.
    static func mouseRotation(tiltX x: Double, tiltY y: Double) -> Double {
        var angle = 0.0
        if x != 0 || y != 0 { angle = 180.0 * atan2(-x, y) / Double.pi }
        return fmod(360 + angle - 5, 360)
    }

    /// evdev_convert_to_mm
    static func mm(_ a: AbsInfo, _ v: Int32) -> Double {
        (Double(v) - Double(a.minimum)) / Double(a.resolution)
    }

    /// libinput's default MOUSE_WHEEL_CLICK_ANGLE.
    static let wheelClickAngle = 15.0
}
