/// What a tablet is and can do, as `hello` and `device` messages describe it.
public struct TabletGeometry: Sendable, Hashable {
    /// The sensor's size in mm: each axis's range (maximum − minimum) over its resolution.
    public var width: Double
    public var height: Double
    /// Units per mm of the x and y axes.
    public var resolutionX: Int
    public var resolutionY: Int
    /// The axes the device declares: x, y, pressure, distance, tilt-x, tilt-y, rotation, slider, wheel.
    public var axes: [String]
    /// The tool types it can report (ToolType names).
    public var tools: [String]
    /// Its buttons, by evdev name (BTN_STYLUS, …).
    public var buttons: [String]
    /// libwacom's integration flags ("display", "system"), or "display" alone for a direct-input
    /// device libwacom does not know; empty for an opaque tablet.
    public var integration: [String]
    /// libwacom's model name, where its database knows the device.
    public var model: String?

    public init(width: Double, height: Double, resolutionX: Int, resolutionY: Int, axes: [String],
                tools: [String], buttons: [String], integration: [String], model: String? = nil) {
        self.width = width
        self.height = height
        self.resolutionX = resolutionX
        self.resolutionY = resolutionY
        self.axes = axes
        self.tools = tools
        self.buttons = buttons
        self.integration = integration
        self.model = model
    }

    /// A display tablet: the pen draws on the screen itself.
    public var isDisplay: Bool { integration.contains("display") }

    /// The fields inside the device object.
    func writeFields(to w: inout JSONWriter) {
        w.field("width", width)
        w.field("height", height)
        w.key("resolution"); w.raw("{")
        w.field("x", resolutionX)
        w.field("y", resolutionY)
        w.raw("}")
        w.key("axes"); Self.write(axes, to: &w)
        w.key("tools"); Self.write(tools, to: &w)
        w.key("buttons"); Self.write(buttons, to: &w)
        w.field("display", isDisplay)
        w.key("integration"); Self.write(integration, to: &w)
        if let model { w.field("model", string: model) }
    }

    static func write(_ list: [String], to w: inout JSONWriter) {
        w.raw("[")
        for item in list { w.separateElement(); w.string(item) }
        w.raw("]")
    }
}
