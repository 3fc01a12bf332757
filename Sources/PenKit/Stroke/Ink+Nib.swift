/// The shape of an ink's nib. Most inks draw with a round nib; the marker's chisel
/// and the fountain pen's italic nib are ellipses held at a fixed angle, so a stroke
/// is `size` wide when drawn across the nib's axis and `height` wide when drawn
/// along it (StrokeOutline turns them with the stroke's direction).
extension Ink.InkType {
    /// `height / size` of the nib: 1 for a round nib.
    public var nibAspect: Double { definition.nibAspect }

    /// The angle of the nib's axis (the `size` direction) from the drawing's x axis towards its y
    /// axis, radians, with the barrel at roll 0 (a point's `roll` turns it further). A chisel held
    /// at 45° (tip of the axis up and to the right on a y-down page) draws its thinnest line along
    /// that diagonal; an italic nib at 30°, the calligrapher's usual pen angle, its thinnest line
    /// rising at 30°.
    public var nibAngle: Double { definition.nibAngle }
}
