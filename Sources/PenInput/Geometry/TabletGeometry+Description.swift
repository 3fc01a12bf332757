import CLibevdev
import PenKit

extension TabletGeometry {
    /// A device's geometry from its evdev description (a trace's header, or the live node as
    /// libevdev reads it), with libwacom's model and integration flags where its database knows it.
    /// Sizes as libinput computes them: (maximum − minimum) / resolution.
    public init(_ d: DeviceDescription, libwacom: LibwacomDatabase? = LibwacomDatabase.installed) {
        let x = d.absInfo[Code.absX], y = d.absInfo[Code.absY]
        func size(_ info: AbsInfo?) -> Double {
            guard let info, info.resolution > 0 else { return 0 }
            return Double(Int(info.maximum) - Int(info.minimum)) / Double(info.resolution)
        }
        var axes: [String] = []
        for (code, name) in Self.absAxisNames where d.has(type: Code.evAbs, code: code) { axes.append(name) }
        if d.has(type: Code.evRel, code: Code.relWheel) { axes.append("wheel") }
        var tools: [String] = []
        for (code, tool) in Self.toolCodes where d.has(type: Code.evKey, code: code) { tools.append(tool.rawValue) }
        let toolCodes = Set(Self.toolCodes.map(\.0) + [Code.btnTouch, Code.btnToolFinger, UInt16(BTN_TOOL_DOUBLETAP),
                                                       UInt16(BTN_TOOL_TRIPLETAP), UInt16(BTN_TOOL_QUADTAP), UInt16(BTN_TOOL_QUINTTAP)])
        let buttons = d.codes[Code.evKey, default: []].subtracting(toolCodes).sorted().map { code in
            libevdev_event_code_get_name(UInt32(Code.evKey), UInt32(code)).map { String(cString: $0) } ?? "KEY_\(code)"
        }
        let known = libwacom?.model(of: d)
        var integration = known?.integration ?? []
        if known == nil, d.properties.contains(Code.propDirect) { integration = ["display"] }
        self.init(width: size(x), height: size(y), resolutionX: Int(x?.resolution ?? 0),
                  resolutionY: Int(y?.resolution ?? 0), axes: axes, tools: tools, buttons: buttons,
                  integration: integration, model: known?.name ?? nil)
    }

    static let absAxisNames: [(UInt16, String)] = [
        (Code.absX, "x"), (Code.absY, "y"), (Code.absPressure, "pressure"), (Code.absDistance, "distance"),
        (Code.absTiltX, "tilt-x"), (Code.absTiltY, "tilt-y"), (Code.absZ, "rotation"), (Code.absWheel, "slider"),
    ]

    static let toolCodes: [(UInt16, ToolType)] = [
        (Code.btnToolPen, .pen), (Code.btnToolRubber, .eraser), (Code.btnToolBrush, .brush),
        (Code.btnToolPencil, .pencil), (Code.btnToolAirbrush, .airbrush), (Code.btnToolMouse, .mouse),
        (Code.btnToolLens, .lens),
    ]
}
