import Foundation
import Testing

/// Rotations 90 and 270 on a real trace replayed by a spawned penkitd, read over its socket, as
/// libinput rotates a tablet: `libinput_device_config_rotation_set_angle` turns a device's
/// coordinates by the angle clockwise, with positions from the top-left corner in the current
/// rotation (libinput's docs, "Absolute axes"), and libinput's rotation matrix
/// (util-matrix.h, matrix_init_rotate: x' = x cos θ − y sin θ, y' = x sin θ + y cos θ, y down)
/// turns a motion to the right into one downwards at 90°. So for a W × H sensor, 90° maps (x, y)
/// to (H − y, x) in an H × W space and 270° to (y, W − x); every direction, azimuth included,
/// turns by the angle. Compared with an unmapped replay of the same trace (`DeviceMappingTests`).
@Suite(.serialized)
struct DeviceRotationTests {
    @Test(arguments: [90, 270])
    func aQuarterTurnMapsPositionsAzimuthAndStrokesAsLibinputRotates(degrees: Int) throws {
        let plain = try DeviceMappingTests.plain.get()
        let rotated = try ReplayCapture(trace: DeviceMappingTests.trace, config: "[device *]\nrotation = \(degrees)\n")
        let W = DeviceMappingTests.axes.width, H = DeviceMappingTests.axes.height
        func expected(_ x: Double, _ y: Double) -> (Double, Double) { degrees == 90 ? (H - y, x) : (y, W - x) }
        let mapping = rotated.device.dictionary("mapping")
        #expect(mapping.number("rotation") == Double(degrees))
        #expect(abs(mapping.number("width")! - H) < 1e-9 && abs(mapping.number("height")! - W) < 1e-9)
        let turn = Double(degrees) * .pi / 180
        var azimuthsChecked = 0, positionsChecked = 0
        for (p0, r0) in try DeviceMappingTests.pairs(plain, rotated) {
            let p = p0.dictionary("sample"), r = r0.dictionary("sample")
            #expect(p.number("t") == r.number("t"))
            let (x, y) = expected(p.number("x")!, p.number("y")!)
            #expect(abs(r.number("x")! - x) < 1e-9 && abs(r.number("y")! - y) < 1e-9)
            positionsChecked += 1
            if !p.strings("estimated").contains("azimuth"), p.number("altitude")! < .pi / 2 - 1e-6 {
                #expect(angleDistance(r.number("azimuth")!, p.number("azimuth")! + turn) < 1e-9)
                azimuthsChecked += 1
            }
        }
        #expect(positionsChecked > 500 && azimuthsChecked > 500)
        let plainStrokes = plain.ofType("stroke"), rotatedStrokes = rotated.ofType("stroke")
        try #require(plainStrokes.count == rotatedStrokes.count && !plainStrokes.isEmpty)
        for (a, b) in zip(plainStrokes, rotatedStrokes) {
            for (pa, pb) in zip(a.dictionary("stroke").list("points"), b.dictionary("stroke").list("points")) {
                let (x, y) = expected(pa.number("x")!, pa.number("y")!)
                #expect(abs(pb.number("x")! - x) < 1e-9 && abs(pb.number("y")! - y) < 1e-9)
            }
        }
    }
}
