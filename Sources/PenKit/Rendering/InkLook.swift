/// How an ink's paint looks beyond its outline and opacity, the same for the
/// SVG and PNG renderers (which draw the texture each in its own way: SVG with
/// its noise filter, the PNG rasterizer with its own seeded noise).
public struct InkLook: Sendable, Hashable {
    /// Paper grain showing through: the paint's alpha is thinned by noise whose
    /// features are about `grain` mm across; nil for a smooth ink.
    public var grain: Double?
    /// The lightest the grain leaves the paint, as a fraction of its alpha.
    public var grainFloor: Double
    /// Soft edges: a Gaussian blur of this standard deviation in mm, times the
    /// stroke's mean size; 0 for sharp edges.
    public var softness: Double
    /// Multiplied onto what is below (highlighter ink) instead of painted over it.
    public var multiply: Bool

    public init(grain: Double? = nil, grainFloor: Double = 1, softness: Double = 0, multiply: Bool = false) {
        self.grain = grain
        self.grainFloor = grainFloor
        self.softness = softness
        self.multiply = multiply
    }
}

extension Ink.InkType {
    public var look: InkLook { definition.look }
}
