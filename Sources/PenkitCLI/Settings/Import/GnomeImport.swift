import Foundation
import PenKit

/// GNOME's tablet settings (gsettings-desktop-schemas, as mutter reads them) as penkit's:
/// `org.gnome.desktop.peripherals.tablet` at /org/gnome/desktop/peripherals/tablets/VID:PID/ and
/// `org.gnome.desktop.peripherals.tablet.stylus` at /org/gnome/desktop/peripherals/stylus/SERIAL/
/// (hex, as mutter prints it) or default-VID:PID/ for a pen without a serial.
struct GnomeImport {
    static let tabletSchema = "org.gnome.desktop.peripherals.tablet"
    static let stylusSchema = "org.gnome.desktop.peripherals.tablet.stylus"

    var reader: GSettingsReader
    var formula: DesktopCurveFormula

    func add(_ tablet: ImportedTablet, to plan: inout ImportPlan) {
        let path = "/org/gnome/desktop/peripherals/tablets/\(tablet.ids)/"
        func source(_ key: String, _ value: String) -> ImportPlan.Source {
            ImportPlan.Source(schema: Self.tabletSchema, path: path, key: key, value: value)
        }
        if let text = reader.get(Self.tabletSchema, path: path, key: "area") {
            let pad = GSettingsReader.numbers(text)
            if pad.count == 4, pad != [0, 0, 0, 0] {
                // Padding left, right, top, bottom in fractions of the sensor (mutter's set_tablet_area).
                if pad[0] + pad[1] < 1, pad[2] + pad[3] < 1,
                   let area = tablet.area(x: pad[0], y: pad[2], width: 1 - pad[0] - pad[1], height: 1 - pad[2] - pad[3]) {
                    plan.add(.init(section: tablet.section, key: "area", value: area, from: source("area", text)))
                } else {
                    plan.skip(source("area", text), "penkitd does not know this tablet's size in mm, or the padding leaves no area")
                }
            }
        }
        if let text = reader.get(Self.tabletSchema, path: path, key: "left-handed"), text == "true" {
            plan.add(.init(section: tablet.section, key: "left-handed", value: "true", from: source("left-handed", text)))
        }
        if let text = reader.get(Self.tabletSchema, path: path, key: "mapping"), GSettingsReader.word(text) != "absolute" {
            plan.skip(source("mapping", text), "penkit has no relative (mouse-like) mapping: its positions are always absolute")
        }
        if let text = reader.get(Self.tabletSchema, path: path, key: "keep-aspect"), text == "true" {
            plan.skip(source("keep-aspect", text), "no penkit equivalent: keeping the monitor's aspect needs the monitor's size, which penkit cannot know on Wayland; set area to that aspect")
        }
        if let text = reader.get(Self.tabletSchema, path: path, key: "output"), text.contains("'"), !text.hasSuffix("['', '', '']") {
            plan.skip(source("output", text), "no penkit equivalent: the monitor is the desktop's to choose, for the virtual tablet (docs/virtual-tablet.md)")
        }
        for (section, stylusPath, eraser) in styluses(of: tablet) {
            addStylus(path: stylusPath, section: section, eraser: eraser, to: &plan)
        }
    }

    /// Each tool's section and GSettings path: the tools penkitd has seen, and the serial-less
    /// pen and eraser of default-VID:PID/ in any case (a tool penkitd has not seen yet).
    private func styluses(of tablet: ImportedTablet) -> [(String, String, Bool)] {
        let fallback = "/org/gnome/desktop/peripherals/stylus/default-\(tablet.ids)/"
        var out: [(String, String, Bool)] = [("tool pen", fallback, false), ("tool eraser", fallback, true)]
        for tool in tablet.tools where tool.serial != 0 && tool.serial != 1 {
            // mutter counts serial 1 as none: the Wacom driver's serial for serial-less pens.
            out.append(("tool serial 0x" + String(tool.serial, radix: 16), "/org/gnome/desktop/peripherals/stylus/\(String(tool.serial, radix: 16))/",
                        tool.type == .eraser))
        }
        return out
    }

    private func addStylus(path: String, section: String, eraser: Bool, to plan: inout ImportPlan) {
        let keys = reader.keys(Self.stylusSchema) ?? []
        func source(_ key: String, _ value: String) -> ImportPlan.Source {
            ImportPlan.Source(schema: Self.stylusSchema, path: path, key: key, value: value)
        }
        let curveKey = eraser ? "eraser-pressure-curve" : "pressure-curve"
        if keys.contains(curveKey), let text = reader.get(Self.stylusSchema, path: path, key: curveKey) {
            let c = GSettingsReader.numbers(text)
            if c.count == 4, c != [0, 0, 100, 100] {
                if c.allSatisfy({ (0...100).contains($0) }) {
                    let value = formula.penkitCurve(x1: c[0] / 100, y1: c[1] / 100, x2: c[2] / 100, y2: c[3] / 100)
                    plan.add(.init(section: section, key: "pressure-curve", value: value, from: source(curveKey, text), formula: formula.rawValue))
                } else {
                    plan.skip(source(curveKey, text), "each of the curve's numbers must be from 0 to 100, as mutter requires")
                }
            }
        }
        let rangeKey = eraser ? "eraser-pressure-range" : "pressure-range"
        if keys.contains(rangeKey), let text = reader.get(Self.stylusSchema, path: path, key: rangeKey) {
            let r = GSettingsReader.numbers(text)
            if r.count == 2, r != [0, 100], r[0] < r[1], r.allSatisfy({ (0...100).contains($0) }) {
                plan.add(.init(section: section, key: "pressure-min", value: DesktopCurveFormula.decimal(r[0] / 100), from: source(rangeKey, text)))
                plan.add(.init(section: section, key: "pressure-max", value: DesktopCurveFormula.decimal(r[1] / 100), from: source(rangeKey, text)))
            }
        }
        guard !eraser else { return }
        // button-action is BTN_STYLUS, secondary BTN_STYLUS2, tertiary BTN_STYLUS3: penkit's button-1…3.
        for (index, key) in ["button-action", "secondary-button-action", "tertiary-button-action"].enumerated() where keys.contains(key) {
            guard let text = reader.get(Self.stylusSchema, path: path, key: key) else { continue }
            let action = GSettingsReader.word(text)
            switch action {
            case "default": continue
            case "middle", "right":
                // mutter's middle and right click in the button's place; penkit's virtual tablet does as much.
                plan.add(.init(section: section, key: "button-\(index + 1)", value: action, from: source(key, text)))
            default:
                plan.skip(source(key, text), Self.buttonReason(action))
            }
        }
    }

    /// GNOME's back and forward make the barrel button a mouse's side button; penkit's button
    /// keys offer left, middle, right, eraser or none.
    static func buttonReason(_ action: String) -> String {
        "no penkit equivalent: GNOME makes the button the mouse's \(action) button; penkit's button-1…3 offer left, middle, right, eraser or none"
    }
}
