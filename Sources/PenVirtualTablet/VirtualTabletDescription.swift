import CLibevdev
import PenInput

/// What penkit's virtual tablet declares to the kernel for one real tablet: the real pen's tools,
/// buttons and axes, with ranges chosen so that libinput's conversions give back penkit's values
/// (a position to the micrometre, a force to 1/65534, a tilt to 0.006°).
///
/// OpenTabletDriver's virtual artist tablet (EvdevVirtualTablet.cs) is the model: tool keys,
/// BTN_TOUCH and stylus buttons, x/y with a resolution (libinput ignores a tablet without one),
/// pressure 0–65535, tilt with a resolution (Krita ignored tilt until it had one). Mouse and lens
/// tools are not carried: they are pointers, not pens, and the compositor gets them from the real
/// device's pointer path.
package struct VirtualTabletLayout: Sendable, Hashable {
    /// Units per mm of x and y: micrometres.
    package static let positionResolution: Int32 = 1000
    /// Pressure and distance span 0…65535, as OpenTabletDriver's do.
    package static let pressureMaximum: Int32 = 65535
    package static let distanceMaximum: Int32 = 65535
    /// Units per radian of tilt (libinput reads tilt resolution in units/radian).
    package static let tiltResolution: Int32 = 10_000
    /// The art pen's barrel (ABS_Z), in tenths of a degree.
    package static let rotationSteps: Int32 = 3600
    package static let sliderMaximum: Int32 = 65535

    package let description: DeviceDescription
    package let hasPressure, hasDistance, hasTilt, hasRotation, hasSlider, hasSerial, hasToolID: Bool
    /// Tool keys (BTN_TOOL_*) and stylus buttons the real tablet has and the virtual one carries.
    package let keys: Set<UInt16>

    /// nil when the real device has no pen tool (a pad, a mouse-only tablet): nothing to carry.
    /// `width` and `height` (mm) are the mapped space's: the configured area, turned.
    package init?(real: DeviceDescription, width: Double, height: Double) {
        let key = UInt16(EV_KEY), abs = UInt16(EV_ABS), msc = UInt16(EV_MSC)
        let realKeys = real.codes[key] ?? []
        let carriedKeys = Self.penTools.union(Self.stylusButtons)
        var keys = realKeys.intersection(carriedKeys)
        guard !keys.intersection(Self.penTools).isEmpty || realKeys.contains(UInt16(BTN_STYLUS)),
              real.has(type: abs, code: UInt16(ABS_X)), real.has(type: abs, code: UInt16(ABS_Y)),
              width > 0, height > 0 else { return nil }
        keys.insert(UInt16(BTN_TOOL_PEN))
        keys.insert(UInt16(BTN_TOUCH))
        // A pen with barrel buttons can have them remapped (a `[tool]` section's button-N): the
        // clicks and the eraser they can become are keys of the virtual tablet too.
        if !keys.intersection(Self.stylusButtons).isEmpty { keys.formUnion(Self.remapTargets) }
        self.keys = keys

        var absInfo: [UInt16: AbsInfo] = [
            UInt16(ABS_X): AbsInfo(minimum: 0, maximum: Self.units(width), resolution: Self.positionResolution),
            UInt16(ABS_Y): AbsInfo(minimum: 0, maximum: Self.units(height), resolution: Self.positionResolution),
        ]
        hasPressure = real.has(type: abs, code: UInt16(ABS_PRESSURE))
        if hasPressure { absInfo[UInt16(ABS_PRESSURE)] = AbsInfo(minimum: 0, maximum: Self.pressureMaximum) }
        hasDistance = real.has(type: abs, code: UInt16(ABS_DISTANCE))
        if hasDistance { absInfo[UInt16(ABS_DISTANCE)] = AbsInfo(minimum: 0, maximum: Self.distanceMaximum) }
        hasTilt = real.has(type: abs, code: UInt16(ABS_TILT_X)) && real.has(type: abs, code: UInt16(ABS_TILT_Y))
        if hasTilt {
            // ±90° in units of 1/10 000 rad; libinput reads a tilt range centred on 0 with a resolution as radians.
            let limit = Int32((Double.pi / 2 * Double(Self.tiltResolution)).rounded(.down))
            for code in [ABS_TILT_X, ABS_TILT_Y] {
                absInfo[UInt16(code)] = AbsInfo(minimum: -limit, maximum: limit, resolution: Self.tiltResolution)
            }
        }
        hasRotation = real.has(type: abs, code: UInt16(ABS_Z))
        if hasRotation { absInfo[UInt16(ABS_Z)] = AbsInfo(minimum: 0, maximum: Self.rotationSteps - 1) }
        hasSlider = real.has(type: abs, code: UInt16(ABS_WHEEL))
        if hasSlider { absInfo[UInt16(ABS_WHEEL)] = AbsInfo(minimum: 0, maximum: Self.sliderMaximum) }
        hasToolID = real.has(type: abs, code: UInt16(ABS_MISC))
        if hasToolID, let info = real.absInfo[UInt16(ABS_MISC)] {
            absInfo[UInt16(ABS_MISC)] = AbsInfo(minimum: info.minimum, maximum: info.maximum)
        }
        hasSerial = real.has(type: msc, code: UInt16(MSC_SERIAL))

        var codes: [UInt16: Set<UInt16>] = [UInt16(EV_SYN): [UInt16(SYN_REPORT)], key: keys, abs: Set(absInfo.keys)]
        if hasSerial { codes[msc] = [UInt16(MSC_SERIAL)] }
        // A display tablet stays direct (the compositor maps it to its screen); any other is a pointer.
        let direct = real.properties.contains(UInt16(INPUT_PROP_DIRECT))
        description = DeviceDescription(
            name: VirtualTabletIdentity.name(for: real.name), bustype: VirtualTabletIdentity.bustype,
            vendor: VirtualTabletIdentity.vendor, product: VirtualTabletIdentity.product, version: 1,
            properties: [UInt16(direct ? INPUT_PROP_DIRECT : INPUT_PROP_POINTER)], codes: codes, absInfo: absInfo)
    }

    static let penTools: Set<UInt16> = [UInt16(BTN_TOOL_PEN), UInt16(BTN_TOOL_RUBBER), UInt16(BTN_TOOL_BRUSH),
                                        UInt16(BTN_TOOL_PENCIL), UInt16(BTN_TOOL_AIRBRUSH)]
    static let stylusButtons: Set<UInt16> = [UInt16(BTN_STYLUS), UInt16(BTN_STYLUS2), UInt16(BTN_STYLUS3)]
    /// What a barrel button can be remapped to (BarrelButtonAction): left, middle, right, the eraser.
    static let remapTargets: Set<UInt16> = [UInt16(BTN_LEFT), UInt16(BTN_MIDDLE), UInt16(BTN_RIGHT), UInt16(BTN_TOOL_RUBBER)]

    /// A sensor's size in mm, from its x and y ranges and resolution (libinput's mm); 0 without a resolution.
    package static func sensorSize(of real: DeviceDescription) -> (width: Double, height: Double) {
        func size(_ code: Int32) -> Double {
            guard let info = real.absInfo[UInt16(code)], info.resolution > 0 else { return 0 }
            return Double(info.maximum - info.minimum) / Double(info.resolution)
        }
        return (size(ABS_X), size(ABS_Y))
    }

    /// Millimetres as position units, rounded to the nearest micrometre.
    static func units(_ mm: Double) -> Int32 {
        Int32(clamping: Int64((mm * Double(positionResolution)).rounded()))
    }
}
