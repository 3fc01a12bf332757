import PenKit

/// A tablet as libinput's tablet code sees it after opening: the event codes it keeps (after
/// enabling BTN_TOOL_PEN, disabling what quirks and libinput disable), axis ranges, and the
/// per-device settings tablet_init derives from them.
struct TabletDevice: Sendable {
    let description: DeviceDescription
    /// Codes libevdev still delivers.
    private(set) var codes: [UInt16: Set<UInt16>]
    private(set) var absInfo: [AbsInfo?]
    /// libinput's tablet axis_caps.
    private(set) var axisCaps: TabletAxisSet = []
    private(set) var historySize = 4
    private(set) var cursorProximityThreshold: Int32 = 0
    /// The device had no BTN_TOOL_PEN, so libinput starts in "forced proximity-out" mode.
    private(set) var lacksToolPen = false
    let quirks: Quirks
    let libwacom: LibwacomDatabase?
    /// `codes` once the device is set up, for the per-event checks.
    private(set) var enabled = EventCodeBitmap([:])

    init(_ d: DeviceDescription, options: DecoderOptions) throws {
        description = d
        if let kind = DeviceClassifier.nonTabletKind(of: d) { throw DecoderError.notATablet(kind) }
        quirks = options.quirksPaths.isEmpty ? Quirks() : Quirks.forTablet(d, paths: options.quirksPaths)
        libwacom = options.libwacomDirectory.flatMap { dir in
            dir == LibwacomDatabase.defaultDirectory ? LibwacomDatabase.installed : LibwacomDatabase(directory: dir)
        }
        codes = d.codes
        absInfo = Array(repeating: nil, count: Code.absCount)
        for (code, info) in d.absInfo where Int(code) < Code.absCount && d.has(type: Code.evAbs, code: code) {
            absInfo[Int(code)] = info
        }

        // evdev_pre_configure_model_quirks
        disable(Code.evMsc, Code.mscTimestamp)
        for (type, code) in quirks.disabledCodes {
            if let code { disable(type, code) } else { codes[type] = nil }
        }
        applyEventCodeChanges(quirks.eventCodes)
        try rejectInvalidAxes()
        try fixResolution(options.fallbackResolution)
        try rejectIncompleteTablet()

        // tablet_init
        if !has(Code.evKey, Code.btnToolPen) {
            codes[Code.evKey, default: []].insert(Code.btnToolPen)
            lacksToolPen = true
        }
        if d.vendor != Code.vendorWacom {
            disable(Code.evKey, Code.btnToolMouse)
            disable(Code.evKey, Code.btnToolLens)
        }
        if has(Code.evKey, Code.btnToolMouse) || has(Code.evKey, Code.btnToolLens) {
            cursorProximityThreshold = 42  // xf86-input-wacom's Intuos/Cintiq default
        }
        let smoothing = options.smoothing ?? quirks.tabletSmoothing ?? !(libwacom?.isAES(d) ?? false)
        historySize = smoothing ? 4 : 1
        axisCaps = deviceAxes()
        enabled = EventCodeBitmap(codes)
    }

    func has(_ type: UInt16, _ code: UInt16) -> Bool { codes[type]?.contains(code) ?? false }

    /// `has` once the device is set up, without hashing: what the per-event paths ask.
    func delivers(_ type: UInt16, _ code: UInt16) -> Bool { enabled.contains(type: type, code: code) }

    func abs(_ code: UInt16) -> AbsInfo? { absInfo[Int(code)] }

    /// AbsInfo for a code the device has (callers check `has` or axisCaps first).
    var x: AbsInfo { absInfo[Int(Code.absX)]! }
    var y: AbsInfo { absInfo[Int(Code.absY)]! }

    private mutating func disable(_ type: UInt16, _ code: UInt16) {
        codes[type]?.remove(code)
        if type == Code.evAbs, Int(code) < Code.absCount { absInfo[Int(code)] = nil }
    }

    /// AttrEventCode's changes, in order, as libinput makes them through libevdev: a type is
    /// switched off and on apart from its codes (turning EV_ABS on again brings its codes back),
    /// enabling a code turns its type on, and an enabled absolute code gets the range 0...1.
    private mutating func applyEventCodeChanges(_ changes: [QuirkEventCodeChange]) {
        var typesOff: Set<UInt16> = []
        for change in changes {
            switch (change.code, change.enable) {
            case (nil, false):
                typesOff.insert(change.type)
            case (nil, true):
                typesOff.remove(change.type)
                codes[change.type, default: []].formUnion([])
            case (let code?, false):
                disable(change.type, code)
            case (let code?, true):
                typesOff.remove(change.type)
                codes[change.type, default: []].insert(code)
                if change.type == Code.evAbs, Int(code) < Code.absCount { absInfo[Int(code)] = AbsInfo(minimum: 0, maximum: 1) }
            }
        }
        for type in typesOff { codes[type] = nil }
    }

    /// evdev_reject_device: inconsistent axes, and min == max (disabled quietly at or past ABS_MISC
    /// when both are 0, except ABS_MISC itself which libinput keeps).
    private mutating func rejectInvalidAxes() throws {
        if has(Code.evAbs, Code.absX) != has(Code.evAbs, Code.absY) { throw DecoderError.rejected("it has only one of ABS_X and ABS_Y") }
        if has(Code.evRel, Code.relX) != has(Code.evRel, Code.relY) { throw DecoderError.rejected("it has only one of REL_X and REL_Y") }
        if let x = abs(Code.absX), let y = abs(Code.absY), (x.resolution == 0) != (y.resolution == 0) {
            throw DecoderError.rejected("the kernel reports only an x or only a y resolution, not both")
        }
        for code in UInt16(0)..<UInt16(Code.absCount) {
            guard code != Code.absMisc, code != Code.absMtSlot, code != Code.absMtToolType,
                  let info = abs(code), info.minimum == info.maximum else { continue }
            if info.minimum == 0 && code >= Code.absMisc && code < Code.absMtSlot {
                disable(Code.evAbs, code)
            } else {
                throw DecoderError.rejected("axis \(String(code, radix: 16)) has min == max")
            }
        }
    }

    /// evdev_fix_abs_resolution: no kernel resolution means a quirk's hint or a fake one of 1,
    /// and a tablet with a fake resolution has no size, so libinput ignores it.
    private mutating func fixResolution(_ fallback: Int32?) throws {
        guard let x = abs(Code.absX), let y = abs(Code.absY), x.resolution == 0, y.resolution == 0 else { return }
        let hint = fallback.map { ($0, $0) } ?? quirks.resolutionHint
        absInfo[Int(Code.absX)]!.resolution = hint?.0 ?? 1
        absInfo[Int(Code.absY)]!.resolution = hint?.1 ?? 1
        if hint == nil || hint?.0 == 1 { fakeResolution = true }
    }

    private var fakeResolution = false

    /// tablet_reject_device
    private func rejectIncompleteTablet() throws {
        let hasXY = has(Code.evAbs, Code.absX) && has(Code.evAbs, Code.absY)
        let hasPen = has(Code.evKey, Code.btnToolPen), hasStylus = has(Code.evKey, Code.btnStylus)
        let hasSize = hasXY && !fakeResolution && x.resolution != 0 && y.resolution != 0
        if hasXY && (hasPen || hasStylus) && hasSize { return }
        var missing: [String] = []
        if !hasXY { missing.append("xy") }
        if !hasPen { missing.append("pen") }
        if !hasStylus { missing.append("btn-stylus") }
        if !hasSize { missing.append("resolution") }
        throw DecoderError.missingTabletCapabilities(missing)
    }

    /// tablet_device_has_axis for every axis.
    private func deviceAxes() -> TabletAxisSet {
        var caps: TabletAxisSet = []
        let absAxes: [(UInt16, TabletAxisSet)] = [
            (Code.absX, .x), (Code.absY, .y), (Code.absDistance, .distance), (Code.absPressure, .pressure),
            (Code.absTiltX, .tiltX), (Code.absTiltY, .tiltY), (Code.absWheel, .slider), (Code.absMtTouchMajor, .size),
        ]
        for (code, axis) in absAxes where has(Code.evAbs, code) { caps.insert(axis) }
        if has(Code.evAbs, Code.absZ)
            || (has(Code.evKey, Code.btnToolMouse) && has(Code.evAbs, Code.absTiltX) && has(Code.evAbs, Code.absTiltY)) {
            caps.insert(.rotation)
        }
        if has(Code.evRel, Code.relWheel) { caps.insert(.wheel) }
        return caps
    }
}
