import Foundation
@testable import penkit
import PenKit
import Testing

/// `penkit settings import` against the desktops' real stores: GSettings through the installed
/// gsettings-desktop-schemas and the gsettings tool (keyfile backend in a temporary
/// XDG_CONFIG_HOME, values set with `gsettings set`), and a kcminputrc file as KWin writes it.
/// The tablet is the Intuos4 6x9 of traces/wacom-intuos4-6x9-stylus-drag.evemu (056a:00b9).
@Suite(.serialized) struct SettingsImportTests {
    /// The trace's size: X 0…44704 and Y 0…27940 at 200 units/mm.
    static let tablet = ImportedTablet(
        device: DeviceInfo(id: 1, name: "Wacom Intuos4 6x9", vendor: 0x056a, product: 0x00b9, source: "trace",
                           geometry: TabletGeometry(width: 223.52, height: 139.7, resolutionX: 200, resolutionY: 200,
                                                    axes: [], tools: ["pen"], buttons: [], integration: [])),
        tools: [])

    struct GSettingsFixture {
        let home: String
        let environment: [String: String]

        init() throws {
            home = NSTemporaryDirectory() + "penkit-gsettings-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
            try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
            environment = ["GSETTINGS_BACKEND": "keyfile", "XDG_CONFIG_HOME": home, "HOME": home, "PATH": "/usr/bin:/bin"]
        }

        func set(_ schema: String, _ path: String, _ key: String, _ value: String) throws {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/gsettings")
            process.arguments = ["set", "\(schema):\(path)", key, value]
            process.environment = environment
            try process.run()
            process.waitUntilExit()
            #expect(process.terminationStatus == 0, "gsettings set \(key) \(value)")
        }
    }

    @Test func gnomeThroughRealGSettings() throws {
        let fixture = try GSettingsFixture()
        defer { try? FileManager.default.removeItem(atPath: fixture.home) }
        let tablet = "/org/gnome/desktop/peripherals/tablets/056a:00b9/"
        let stylus = "/org/gnome/desktop/peripherals/stylus/default-056a:00b9/"
        try fixture.set(GnomeImport.tabletSchema, tablet, "area", "[0.1, 0.2, 0.05, 0.15]")
        try fixture.set(GnomeImport.tabletSchema, tablet, "left-handed", "true")
        try fixture.set(GnomeImport.stylusSchema, stylus, "pressure-curve", "[0, 30, 70, 100]")
        try fixture.set(GnomeImport.stylusSchema, stylus, "eraser-pressure-curve", "[20, 0, 100, 80]")
        try fixture.set(GnomeImport.stylusSchema, stylus, "button-action", "'right'")
        try fixture.set(GnomeImport.stylusSchema, stylus, "secondary-button-action", "'back'")
        // The keyfile is where the values went: gsettings really wrote them.
        #expect(FileManager.default.fileExists(atPath: fixture.home + "/glib-2.0/settings/keyfile"))

        let reader = try #require(GSettingsReader(environment: fixture.environment))
        var plan = ImportPlan(desktop: "gnome", compositor: "mutter", compositorVersion: "43.8", curveFormula: "")
        GnomeImport(reader: reader, formula: .mutter(version: "43.8-2~deb12u1")).add(Self.tablet, to: &plan)
        let json = try JSONSerialization.jsonObject(with: Data(try plan.json().utf8)) as! [String: Any]
        let settings = json["settings"] as! [[String: Any]]
        func setting(_ section: String, _ key: String) -> [String: Any]? {
            settings.first { $0["section"] as? String == section && $0["key"] as? String == key }
        }
        // Padding left 10 %, right 20 %, top 5 %, bottom 15 % of 223.52 × 139.7 mm.
        let area = try #require(setting("device 056a:00b9", "area"))
        #expect(area["value"] as? String == "22.352, 6.985, 156.464, 111.76")
        let from = area["from"] as! [String: Any]
        #expect(from["schema"] as? String == "org.gnome.desktop.peripherals.tablet")
        #expect(from["path"] as? String == tablet && from["key"] as? String == "area")
        #expect(setting("device 056a:00b9", "left-handed")?["value"] as? String == "true")
        // mutter 43: y1 = 0.3, y2 = 1 → the Bézier (1/3, 1.3/3, 2/3, 2.3/3).
        let pen = try #require(setting("tool pen", "pressure-curve"))
        #expect(pen["value"] as? String == "0.33333333, 0.43333333, 0.66666667, 0.76666667")
        #expect(pen["formula"] as? String == "mutter-legacy")
        #expect((pen["from"] as! [String: Any])["path"] as? String == stylus)
        let eraser = try #require(setting("tool eraser", "pressure-curve"))
        #expect((eraser["from"] as! [String: Any])["key"] as? String == "eraser-pressure-curve")
        // The lower barrel button's right click is penkit's button-1 = right; back has no penkit
        // equivalent and is listed, with where it came from; a default action is no setting.
        let right = try #require(setting("tool pen", "button-1"))
        #expect(right["value"] as? String == "right")
        #expect((right["from"] as! [String: Any])["key"] as? String == "button-action")
        #expect(setting("tool pen", "button-2") == nil && setting("tool pen", "button-3") == nil)
        let skipped = json["skipped"] as! [[String: Any]]
        let buttons = skipped.compactMap { ($0["from"] as? [String: Any])?["key"] as? String }
        #expect(buttons == ["secondary-button-action"], "\(skipped)")
        #expect(skipped.allSatisfy { ($0["reason"] as? String)?.contains("no penkit equivalent") == true })
        // mutter 46's formula is written as points.
        var newer = ImportPlan(desktop: "gnome", compositor: "mutter", compositorVersion: "47.1", curveFormula: "")
        GnomeImport(reader: reader, formula: .mutter(version: "47.1-1")).add(Self.tablet, to: &newer)
        #expect(newer.settings.first { $0.key == "pressure-curve" }?.value.hasPrefix("points 0:0 ") == true)
    }

    @Test func gnomeWithNothingSetImportsNothing() throws {
        let fixture = try GSettingsFixture()
        defer { try? FileManager.default.removeItem(atPath: fixture.home) }
        let reader = try #require(GSettingsReader(environment: fixture.environment))
        var plan = ImportPlan(desktop: "gnome", compositor: "mutter", compositorVersion: nil, curveFormula: "")
        GnomeImport(reader: reader, formula: .mutterLegacy).add(Self.tablet, to: &plan)
        #expect(plan.settings.isEmpty && plan.skipped.isEmpty, "\(plan.settings) \(plan.skipped)")
    }

    @Test func kdeFromARealKcminputrc() throws {
        let home = NSTemporaryDirectory() + "penkit-kde-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: home) }
        // As KWin 6 writes it: decimal ids, the device's name, the curve as Device::serializePressureCurve does.
        try """
            [ButtonRebinds][TabletTool][Wacom Intuos4 6x9]
            331=MouseButton,274
            332=Disabled
            329=Key,Ctrl+Z

            [Libinput][1386][185][Wacom Intuos4 6x9]
            InputArea=0.25,0,0.5,0.75
            LeftHanded=true
            Orientation=8
            OutputName=DP-1
            TabletToolPressureCurve=0.1,0.5;0.6,0.9;
            TabletToolPressureRangeMin=0.05

            [Libinput][1386][185][Wacom Intuos4 6x9 Pad]
            LeftHanded=false
            """.write(toFile: home + "/kcminputrc", atomically: true, encoding: .utf8)
        let kde = try #require(KdeImport(environment: ["XDG_CONFIG_HOME": home]))
        var plan = ImportPlan(desktop: "kde", compositor: "kwin", compositorVersion: nil, curveFormula: "")
        kde.add(Self.tablet, to: &plan)
        func value(_ section: String, _ key: String) -> String? {
            plan.settings.first { $0.section == section && $0.key == key }?.value
        }
        #expect(value("device 056a:00b9", "area") == "55.88, 0, 111.76, 104.775")
        #expect(value("device 056a:00b9", "left-handed") == "true")
        #expect(value("device 056a:00b9", "rotation") == "180")
        #expect(value("tool pen", "pressure-curve") == "0.1, 0.5, 0.6, 0.9")
        #expect(value("tool eraser", "pressure-curve") == "0.1, 0.5, 0.6, 0.9")
        #expect(value("tool pen", "pressure-min") == "0.05")
        let curve = try #require(plan.settings.first { $0.key == "pressure-curve" })
        #expect(curve.from == ImportPlan.Source(file: home + "/kcminputrc", group: "[Libinput][1386][185][Wacom Intuos4 6x9]",
                                               key: "TabletToolPressureCurve", value: "0.1,0.5;0.6,0.9;"))
        #expect(curve.formula == "kwin-bezier")
        let skipped = plan.skipped.map { "\($0.from.group ?? "") \($0.from.key)" }
        // BTN_STYLUS clicks the middle button, BTN_STYLUS2 does nothing; a key has no equivalent.
        #expect(value("tool pen", "button-1") == "middle")
        #expect(value("tool pen", "button-2") == "none")
        #expect(value("tool pen", "button-3") == nil)
        #expect(skipped.contains("[ButtonRebinds][TabletTool][Wacom Intuos4 6x9] 329"))
        #expect(!skipped.contains("[ButtonRebinds][TabletTool][Wacom Intuos4 6x9] 331"))
        #expect(skipped.contains("[Libinput][1386][185][Wacom Intuos4 6x9] OutputName"))
    }
}
