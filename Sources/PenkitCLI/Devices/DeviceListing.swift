import PenKit

/// One device as `penkit devices` prints it: `Label: value` lines, laid out as
/// `libinput list-devices` lays out its own, followed by a blank line.
enum DeviceListing {
    static func text(_ d: DeviceInfo) -> String {
        var lines: [(String, String)] = [
            ("Device", d.name),
            ("Id", "\(d.id)"),
            ("Kernel", d.source),
            ("Vendor/product", "\(hex(d.vendor)):\(hex(d.product))"),
        ]
        if let g = d.geometry {
            lines.append(("Model", g.model ?? "(not in libwacom)"))
            lines.append(("Size", "\(millimetres(g.width))x\(millimetres(g.height))mm"))
            lines.append(("Resolution", "\(g.resolutionX)x\(g.resolutionY) units/mm"))
            lines.append(("Integration", g.integration.isEmpty ? "opaque" : g.integration.joined(separator: " ")))
            lines.append(("Axes", g.axes.joined(separator: " ")))
            lines.append(("Tools", g.tools.joined(separator: " ")))
            lines.append(("Buttons", g.buttons.isEmpty ? "(none)" : g.buttons.joined(separator: " ")))
        }
        if let m = d.mapping {
            lines.append(("Mapped", "\(millimetres(m.width))x\(millimetres(m.height))mm, rotated \(m.rotation)°"))
        }
        return lines.map { label, value in
            let head = label + ":"
            return head + String(repeating: " ", count: max(1, 18 - head.count)) + value
        }.joined(separator: "\n") + "\n"
    }

    /// Two decimals, as libinput prints sizes.
    static func millimetres(_ v: Double) -> String {
        let hundredths = Int((v * 100).rounded())
        let fraction = hundredths % 100
        return "\(hundredths / 100)." + (fraction < 10 ? "0" : "") + "\(fraction)"
    }

    static func hex(_ v: UInt16) -> String {
        let s = String(v, radix: 16)
        return String(repeating: "0", count: max(0, 4 - s.count)) + s
    }
}
