import Foundation
@testable import penkitd
import PenInput
import Testing

/// penkitd's check, when the virtual tablet takes a tablet, for the desktop's settings of it in
/// the files GNOME (GSettings' keyfile, written here by the real gsettings) and KDE keep them in.
@Suite struct DesktopSettingsNoticeTests {
    static func description(_ name: String, vendor: UInt16, product: UInt16) -> DeviceDescription {
        DeviceDescription(name: name, vendor: vendor, product: product)
    }

    @Test func findsGnomesAndKdesSettingsForTheTabletAndNoneForAnother() throws {
        let home = NSTemporaryDirectory() + "penkitd-desktop-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: home) }
        let gsettings = Process()
        gsettings.executableURL = URL(fileURLWithPath: "/usr/bin/gsettings")
        gsettings.arguments = ["set", "org.gnome.desktop.peripherals.tablet:/org/gnome/desktop/peripherals/tablets/056a:00b9/", "left-handed", "true"]
        gsettings.environment = ["GSETTINGS_BACKEND": "keyfile", "XDG_CONFIG_HOME": home, "HOME": home]
        try gsettings.run()
        gsettings.waitUntilExit()
        #expect(gsettings.terminationStatus == 0)
        try "[Libinput][1386][185][Wacom Intuos4 6x9]\nLeftHanded=true\n".write(toFile: home + "/kcminputrc", atomically: true, encoding: .utf8)
        let environment = { (key: String) -> String? in key == "XDG_CONFIG_HOME" ? home : nil }
        let intuos = Self.description("Wacom Intuos4 6x9", vendor: 0x56a, product: 0xb9)
        #expect(DesktopSettingsNotice.desktops(naming: intuos, environment: environment) == ["gnome", "kde"])
        let other = Self.description("Wacom DTH2242 Pen", vendor: 0x56a, product: 0x59)
        #expect(DesktopSettingsNotice.desktops(naming: other, environment: environment).isEmpty)
    }
}
