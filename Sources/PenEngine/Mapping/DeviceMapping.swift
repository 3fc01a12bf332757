import PenKit

/// A rectangle in millimetres (sensor areas) or client units (outputs).
package struct MappingRect: Sendable, Hashable {
    package var x: Double, y: Double, width: Double, height: Double

    package init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }
}

/// Where a device's positions go: an active area of the sensor, turned by a rotation, with
/// positions staying millimetres from the area's (rotated) top-left corner; optionally scaled
/// onto an output rectangle in the client's units as well. Tilt turns with the positions, so
/// azimuth stays consistent. Plain arithmetic on each event, on the input thread.
package struct DeviceMapping: Sendable, Hashable {
    /// The area used, in sensor millimetres.
    package var area: MappingRect
    /// Clockwise degrees: 0, 90, 180 or 270 (left-handed already folded in as 180).
    package var rotation: Int
    package var output: MappingRect?

    package init(area: MappingRect, rotation: Int, output: MappingRect? = nil) {
        self.area = area
        self.rotation = ((rotation % 360) + 360) % 360
        self.output = output
    }

    /// Size of the mapped space in mm: the area's, its sides swapped by a quarter turn.
    package var width: Double { rotation == 90 || rotation == 270 ? area.height : area.width }
    package var height: Double { rotation == 90 || rotation == 270 ? area.width : area.height }

    /// Moves the position into the mapped space and turns the tilt with it.
    package func apply(to axes: inout TabletAxes) {
        let u = axes.x - area.x, v = axes.y - area.y
        let w = area.width, h = area.height
        let tx = axes.tiltX, ty = axes.tiltY
        switch rotation {
        case 90:
            // The sensor's bottom-left corner becomes the top-left.
            axes.x = h - v; axes.y = u
            axes.tiltX = -ty; axes.tiltY = tx
        case 180:
            axes.x = w - u; axes.y = h - v
            axes.tiltX = -tx; axes.tiltY = -ty
        case 270:
            axes.x = v; axes.y = w - u
            axes.tiltX = ty; axes.tiltY = -tx
        default:
            axes.x = u; axes.y = v
        }
    }

    /// A mapped position in the output rectangle's units; nil without an output.
    @inline(__always)
    package func outputPoint(x: Double, y: Double) -> (x: Double, y: Double)? {
        guard let output, width > 0, height > 0 else { return nil }
        return (output.x + x / width * output.width, output.y + y / height * output.height)
    }
}
