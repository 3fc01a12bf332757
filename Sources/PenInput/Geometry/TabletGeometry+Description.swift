import PenKit

extension TabletGeometry {
    /// A device's geometry from its evdev description (a trace's header, or the live node as
    /// libevdev reads it), with libwacom's model and integration flags where its database knows it.
    /// Sizes as libinput computes them: (maximum − minimum) / resolution.
    package init(_ d: DeviceDescription, libwacom: LibwacomDatabase? = LibwacomDatabase.installed) {
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
        let buttons = d.codes[Code.evKey, default: []].sorted().compactMap { code -> String? in
            let name = Self.keyNames[code] ?? "KEY_\(code)"
            // Tool and touch keys say which tool is near, not a button.
            return name.hasPrefix("BTN_TOOL_") || code == Code.btnTouch ? nil : name
        }
        let known = libwacom?.model(of: d)
        var integration = known?.integration ?? []
        if known == nil, d.properties.contains(Code.propDirect) { integration = ["display"] }
        self.init(width: size(x), height: size(y), resolutionX: Int(x?.resolution ?? 0),
                  resolutionY: Int(y?.resolution ?? 0), axes: axes, tools: tools, buttons: buttons,
                  integration: integration, model: known?.name ?? nil)
    }

    /// A name for each key code; where several name one code (BTN_0 and BTN_MISC), a BTN_ name
    /// before a KEY_ one, then the shortest.
    static let keyNames: [UInt16: String] = {
        var names: [UInt16: String] = [:]
        func better(_ a: String, than b: String) -> Bool {
            let aButton = a.hasPrefix("BTN_"), bButton = b.hasPrefix("BTN_")
            if aButton != bButton { return aButton }
            return (a.count, a) < (b.count, b)
        }
        for (name, code) in EventCodeNames.codes where name.hasPrefix("BTN_") || name.hasPrefix("KEY_") {
            if name.hasSuffix("_MAX") || name.hasSuffix("_CNT") { continue }
            if let current = names[code], !better(name, than: current) { continue }
            names[code] = name
        }
        return names
    }()

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
