/// How a tool feels: what its raw pressure becomes and how far from the surface it still hovers.
/// Every field is optional so that a tool serial's feel can be laid over its type's key by key.
package struct PenFeel: Sendable, Hashable {
    /// Applied after the thresholds.
    package var curve: PressureCurve?
    /// Raw pressure (libinput's normalized [0,1]) at and below which the force is 0.
    package var pressureMin: Double?
    /// Raw pressure at and above which the force is 1.
    package var pressureMax: Double?
    /// Normalized hover distance [0,1] beyond which hover frames are not sent.
    package var hoverCutoff: Double?
    /// Raw pressure at which the virtual tablet's pen touches (it lifts at half of it); nil:
    /// where libinput's tip goes down (5 % of the range). Only the virtual tablet uses it: the
    /// socket's strokes follow libinput's tip.
    package var tipThreshold: Double?
    /// What barrel buttons 1…3 do on the virtual tablet, by number; a button not in it is
    /// written as pressed. Only the virtual tablet uses it: socket clients get the real button.
    package var buttons: BarrelButtons

    package init(curve: PressureCurve? = nil, pressureMin: Double? = nil, pressureMax: Double? = nil,
                hoverCutoff: Double? = nil, tipThreshold: Double? = nil, buttons: BarrelButtons = BarrelButtons()) {
        self.tipThreshold = tipThreshold
        self.buttons = buttons
        self.curve = curve
        self.pressureMin = pressureMin
        self.pressureMax = pressureMax
        self.hoverCutoff = hoverCutoff
    }

    /// This feel with `other`'s fields where it has them.
    package func overlaid(by other: PenFeel) -> PenFeel {
        PenFeel(curve: other.curve ?? curve, pressureMin: other.pressureMin ?? pressureMin,
                pressureMax: other.pressureMax ?? pressureMax, hoverCutoff: other.hoverCutoff ?? hoverCutoff,
                tipThreshold: other.tipThreshold ?? tipThreshold, buttons: buttons.overlaid(by: other.buttons))
    }

    /// Whether the force differs from the raw pressure at all.
    package var shapesPressure: Bool { curve != nil || pressureMin != nil || pressureMax != nil }

    /// The force for a raw pressure: the thresholds' range stretched to [0,1], then the curve.
    package func force(fromRaw raw: Double) -> Double {
        let low = pressureMin ?? 0, high = pressureMax ?? 1
        var p = raw
        if high > low { p = (raw - low) / (high - low) } else { p = raw >= high ? 1 : 0 }
        p = min(max(p, 0), 1)
        return curve?.value(at: p) ?? p
    }

    /// Whether a hover sample `distance` away is beyond the cut-off.
    package func isBeyondHoverCutoff(_ distance: Double) -> Bool {
        guard let hoverCutoff else { return false }
        return distance > hoverCutoff
    }
}
