import Foundation
import PenKit

/// KDE's tablet settings as KWin reads them from kcminputrc: the group
/// `[Libinput][VENDOR][PRODUCT][NAME]` (decimal ids, the device's name) holds
/// TabletToolPressureCurve (`x1,y1;x2,y2;`), TabletToolPressureRangeMin/Max, InputArea
/// (`x,y,width,height` in fractions of the tablet), Orientation (Qt::ScreenOrientation),
/// LeftHanded, OutputName and OutputArea.
struct KdeImport {
    var file: String
    var groups: [String: [String: String]]

    /// kcminputrc in $XDG_CONFIG_HOME, else ~/.config; nil when there is none.
    init?(environment: [String: String]) {
        let config = environment["XDG_CONFIG_HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? ((environment["HOME"] ?? "") + "/.config")
        let file = config + "/kcminputrc"
        guard let text = try? String(contentsOfFile: file, encoding: .utf8) else { return nil }
        self.file = file
        groups = Self.parse(text)
    }

    /// KConfig's groups: `[A][B]` headers, `key=value` lines (a key's `[$i]`-style flags dropped).
    static func parse(_ text: String) -> [String: [String: String]] {
        var groups: [String: [String: String]] = [:]
        var group = ""
        for raw in text.split(whereSeparator: \.isNewline) {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") { continue }
            if line.hasPrefix("[") { group = line; continue }
            guard let equals = line.firstIndex(of: "=") else { continue }
            var key = line[..<equals].trimmingCharacters(in: .whitespaces)
            if let flag = key.firstIndex(of: "[") { key = String(key[..<flag]) }
            groups[group, default: [:]][key] = String(line[line.index(after: equals)...]).trimmingCharacters(in: .whitespaces)
        }
        return groups
    }

    func add(_ tablet: ImportedTablet, to plan: inout ImportPlan) {
        let group = "[Libinput][\(tablet.device.vendor)][\(tablet.device.product)][\(tablet.device.name)]"
        guard let values = groups[group] else { return }
        func source(_ key: String) -> ImportPlan.Source {
            ImportPlan.Source(file: file, group: group, key: key, value: values[key] ?? "")
        }
        if let text = values["TabletToolPressureCurve"] {
            let numbers = text.split(whereSeparator: { $0 == ";" || $0 == "," }).compactMap { Double($0) }
            if numbers.count == 4, numbers.allSatisfy({ (0...1).contains($0) }) {
                let value = DesktopCurveFormula.kwinBezier.penkitCurve(x1: numbers[0], y1: numbers[1], x2: numbers[2], y2: numbers[3])
                for tool in ["pen", "eraser"] {
                    plan.add(.init(section: "tool \(tool)", key: "pressure-curve", value: value, from: source("TabletToolPressureCurve"),
                                   formula: DesktopCurveFormula.kwinBezier.rawValue))
                }
            } else {
                plan.skip(source("TabletToolPressureCurve"), "not two points x1,y1;x2,y2; each from 0 to 1, as KWin reads them")
            }
        }
        let low = values["TabletToolPressureRangeMin"].flatMap(Double.init), high = values["TabletToolPressureRangeMax"].flatMap(Double.init)
        if low != nil || high != nil {
            let (min, max) = (low ?? 0, high ?? 1)
            if (0...1).contains(min), (0...1).contains(max), min < max {
                for tool in ["pen", "eraser"] {
                    if low != nil { plan.add(.init(section: "tool \(tool)", key: "pressure-min", value: DesktopCurveFormula.decimal(min), from: source("TabletToolPressureRangeMin"))) }
                    if high != nil { plan.add(.init(section: "tool \(tool)", key: "pressure-max", value: DesktopCurveFormula.decimal(max), from: source("TabletToolPressureRangeMax"))) }
                }
            } else {
                plan.skip(source(low != nil ? "TabletToolPressureRangeMin" : "TabletToolPressureRangeMax"), "the range must be 0 ≤ min < max ≤ 1")
            }
        }
        if let text = values["InputArea"] {
            let r = text.split(separator: ",").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
            if r.count == 4, r != [0, 0, 1, 1], r[2] > 0, r[3] > 0, let area = tablet.area(x: r[0], y: r[1], width: r[2], height: r[3]) {
                plan.add(.init(section: tablet.section, key: "area", value: area, from: source("InputArea")))
            } else if r != [0, 0, 1, 1] {
                plan.skip(source("InputArea"), "not x,y,width,height in fractions of the tablet, or penkitd does not know its size in mm")
            }
        }
        if let text = values["Orientation"], let orientation = Int(text) {
            // Qt::ScreenOrientation as KWin's setOrientedCalibrationMatrix turns it: Portrait 90° clockwise,
            // InvertedLandscape 180°, InvertedPortrait 270°; Primary and Landscape not at all.
            let degrees: [Int: Int] = [0: 0, 1: 90, 2: 0, 4: 270, 8: 180]
            if let rotation = degrees[orientation] {
                if rotation != 0 { plan.add(.init(section: tablet.section, key: "rotation", value: String(rotation), from: source("Orientation"))) }
            } else {
                plan.skip(source("Orientation"), "not a Qt::ScreenOrientation (0, 1, 2, 4 or 8)")
            }
        }
        if values["LeftHanded"] == "true" {
            plan.add(.init(section: tablet.section, key: "left-handed", value: "true", from: source("LeftHanded")))
        }
        for key in ["OutputName", "OutputArea", "MapToWorkspace"] where values[key] != nil {
            plan.skip(source(key), "no penkit equivalent: the monitor is the desktop's to choose, for the virtual tablet (docs/virtual-tablet.md)")
        }
        addButtons(tablet, to: &plan)
    }

    /// KWin's pen button re-binds, `[ButtonRebinds][TabletTool][NAME]` keyed by evdev code
    /// (331 BTN_STYLUS, 332 BTN_STYLUS2, 329 BTN_STYLUS3, penkit's button-1…3), each a KConfig
    /// list as KWin's ButtonRebindsFilter reads it: `MouseButton,CODE[,MODIFIERS]` clicks that
    /// mouse button (272 left, 273 right, 274 middle), `Disabled` does nothing; a key, a scroll
    /// or another pen button has no penkit equivalent.
    private func addButtons(_ tablet: ImportedTablet, to plan: inout ImportPlan) {
        let group = "[ButtonRebinds][TabletTool][\(tablet.device.name)]"
        guard let values = groups[group] else { return }
        let numbers = ["331": 1, "332": 2, "329": 3]
        for key in values.keys.sorted() {
            let text = values[key] ?? ""
            let source = ImportPlan.Source(file: file, group: group, key: key, value: text)
            guard let number = numbers[key] else {
                plan.skip(source, "not a barrel button penkit knows (331 BTN_STYLUS, 332 BTN_STYLUS2, 329 BTN_STYLUS3)")
                continue
            }
            if let action = Self.buttonAction(text) {
                plan.add(.init(section: "tool pen", key: "button-\(number)", value: action, from: source))
            } else {
                plan.skip(source, "no penkit equivalent: KWin sends a key, a scroll, another pen button or a click with modifiers in its place; penkit's button-1…3 offer left, middle, right, eraser or none")
            }
        }
    }

    /// penkit's button action for a KWin re-bind, nil when penkit has none like it.
    static func buttonAction(_ entry: String) -> String? {
        let parts = entry.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        if parts == ["Disabled"] { return "none" }
        guard parts.first == "MouseButton", parts.count == 2 || (parts.count == 3 && parts[2] == "0") else { return nil }
        return ["272": "left", "273": "right", "274": "middle"][parts[1]]
    }
}
