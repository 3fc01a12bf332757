import PenKit

/// Finalized strokes as the stroke model draws them: applied to a `Drawing` (an eraser stroke
/// erases, with the object eraser, as `penkit strokes --svg` does) and rendered by PenKit's SVG
/// renderer, so that the page shows the same outlines as the SVG files.
///
/// Each stroke that erases nothing is sent as an SVG of itself, which the page adds; when an
/// eraser changed the drawing, the whole drawing is sent and replaces what the page had. So a
/// long history costs one small SVG per stroke, not the whole drawing again each time.
struct ViewDrawing {
    private var drawing = Drawing()
    private var finalized = 0
    let eraser = EraserTool()

    /// The `drawing` line for one more finalized stroke, or nil when it changes nothing drawn
    /// (an eraser stroke that touched no stroke).
    mutating func add(_ stroke: Stroke) -> String? {
        finalized += 1
        if let erased = drawing.apply(stroke, eraser: eraser) {
            guard erased.touched > 0 else { return nil }
            return ViewDrawingMessage(replace: true, strokes: finalized, svg: DrawingSVG.render(drawing)).jsonLine()
        }
        return ViewDrawingMessage(replace: false, strokes: finalized,
                                  svg: DrawingSVG.render(Drawing(strokes: [stroke]))).jsonLine()
    }
}

/// `{"type":"drawing","replace":bool,"strokes":N,"svg":"<svg …>"}`: finalized ink as SVG in mm
/// (its viewBox places it); `replace` drops what the page drew before; `strokes` counts the
/// finalized strokes it accounts for.
struct ViewDrawingMessage: WireMessage {
    var replace: Bool
    var strokes: Int
    var svg: String

    func write(to w: inout JSONWriter) {
        w.raw("{")
        w.field("type", plain: "drawing")
        w.field("replace", replace)
        w.field("strokes", strokes)
        w.field("svg", string: svg)
        w.raw("}")
    }
}
