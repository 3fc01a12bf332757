/// A rectangle of pixels, each a fraction in [0, 1], placed at (`originX`, `originY`) in a
/// larger image: how much of each pixel a shape covers, or a stroke's alpha.
struct CoverageLayer {
    let originX: Int
    let originY: Int
    let width: Int
    let height: Int
    var values: [Float]

    init(originX: Int, originY: Int, width: Int, height: Int) {
        self.originX = originX
        self.originY = originY
        self.width = max(width, 0)
        self.height = max(height, 0)
        values = [Float](repeating: 0, count: self.width * self.height)
    }

    /// The layer's value at image pixel (x, y); 0 outside it.
    func value(x: Int, y: Int) -> Float {
        let lx = x - originX, ly = y - originY
        guard lx >= 0, ly >= 0, lx < width, ly < height else { return 0 }
        return values[ly * width + lx]
    }

    /// Paints `level` where `coverage` covers, over what is there: painting, not blending,
    /// so a piece painted over another replaces it instead of adding to it.
    mutating func paint(_ coverage: CoverageLayer, level: Float) {
        for y in 0..<coverage.height {
            let ly = y + coverage.originY - originY
            guard ly >= 0, ly < height else { continue }
            for x in 0..<coverage.width {
                let lx = x + coverage.originX - originX
                guard lx >= 0, lx < width else { continue }
                let c = min(coverage.values[y * coverage.width + x], 1)
                guard c > 0 else { continue }
                let i = ly * width + lx
                values[i] = values[i] * (1 - c) + level * c
            }
        }
    }

    /// Removes what `coverage` covers (an eraser's cut).
    mutating func cut(_ coverage: CoverageLayer) {
        for i in values.indices where values[i] > 0 {
            let x = i % width + originX, y = i / width + originY
            values[i] *= 1 - min(coverage.value(x: x, y: y), 1)
        }
    }
}
