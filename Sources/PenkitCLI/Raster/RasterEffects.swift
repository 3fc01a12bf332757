import Foundation

/// The PNG rasterizer's own versions of the SVG's grain and softness (InkLook):
/// the same sizes and strengths, not the same pixels (Chromium's feTurbulence is
/// its own Perlin noise; this one is seeded by the stroke's seed too).
enum RasterEffects {
    /// Two octaves of gradient (Perlin) noise in [0, 1], 0.5 on average, with features `cell` mm
    /// across: gradient noise is zero at every lattice point, so areas of a few cells average out
    /// to 0.5 (value noise wanders, and its grain looked blotchy).
    static func grain(x: Double, y: Double, cell: Double, seed: UInt32) -> Double {
        let n = 0.7 * gradientNoise(x / cell, y / cell, seed: seed) + 0.3 * gradientNoise(2 * x / cell, 2 * y / cell, seed: seed &+ 1)
        return min(max(0.5 + 0.6 * n, 0), 1)
    }

    /// The alpha factor the SVG's colour matrix gives noise n: 0.3 ↦ `floor`, 0.65 ↦ 1, clamped.
    static func grainFactor(_ n: Double, floor: Double) -> Float {
        let slope = (1 - floor) / 0.35
        return Float(min(max(1 + (n - 0.65) * slope, 0), 1))
    }

    /// Perlin's noise: at each lattice corner a hashed unit gradient, dotted with the offset from
    /// the corner, blended with the quintic fade; about −0.7 … 0.7.
    private static func gradientNoise(_ x: Double, _ y: Double, seed: UInt32) -> Double {
        let ix = Int(x.rounded(.down)), iy = Int(y.rounded(.down))
        let fx = x - Double(ix), fy = y - Double(iy)
        func corner(_ cx: Int, _ cy: Int) -> Double {
            let angle = lattice(ix + cx, iy + cy, seed) * 2 * Double.pi
            return cos(angle) * (fx - Double(cx)) + sin(angle) * (fy - Double(cy))
        }
        let sx = fx * fx * fx * (fx * (fx * 6 - 15) + 10), sy = fy * fy * fy * (fy * (fy * 6 - 15) + 10)
        let top = corner(0, 0) + (corner(1, 0) - corner(0, 0)) * sx
        let bottom = corner(0, 1) + (corner(1, 1) - corner(0, 1)) * sx
        return top + (bottom - top) * sy
    }

    /// A hash of the lattice point and seed, in [0, 1].
    private static func lattice(_ x: Int, _ y: Int, _ seed: UInt32) -> Double {
        var h = UInt64(bitPattern: Int64(x)) &* 0x9E37_79B9_7F4A_7C15 ^ UInt64(bitPattern: Int64(y)) &* 0xC2B2_AE3D_27D4_EB4F
        h ^= UInt64(seed) &* 0x1656_67B1_9E37_79F9
        h = (h ^ (h >> 29)) &* 0xBF58_476D_1CE4_E5B9
        h ^= h >> 32
        return Double(h & 0xFFFF) / 65535
    }

    /// A Gaussian blur of standard deviation `sigma` pixels, as three box blurs each way.
    static func blur(_ layer: inout CoverageLayer, sigma: Double) {
        guard sigma > 0.3, layer.width > 0, layer.height > 0 else { return }
        let radius = max(Int(((12 * sigma * sigma / 3 + 1).squareRoot() - 1) / 2 + 0.5), 1)
        for _ in 0..<3 {
            boxBlur(&layer.values, count: layer.width, lines: layer.height, step: 1, lineStep: layer.width, radius: radius)
            boxBlur(&layer.values, count: layer.height, lines: layer.width, step: layer.width, lineStep: 1, radius: radius)
        }
    }

    /// A running mean of 2·radius + 1 values along each line, zero beyond its ends.
    private static func boxBlur(_ v: inout [Float], count: Int, lines: Int, step: Int, lineStep: Int, radius: Int) {
        var line = [Float](repeating: 0, count: count)
        let scale = 1 / Float(2 * radius + 1)
        for l in 0..<lines {
            let base = l * lineStep
            for i in 0..<count { line[i] = v[base + i * step] }
            var sum: Float = 0
            for i in 0..<min(radius, count) { sum += line[i] }
            for i in 0..<count {
                if i + radius < count { sum += line[i + radius] }
                if i - radius - 1 >= 0 { sum -= line[i - radius - 1] }
                v[base + i * step] = max(sum * scale, 0)
            }
        }
    }
}
