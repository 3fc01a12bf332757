import Foundation
@testable import penkit
import PenInput
import PenKit
import Testing

/// penkit doctor's findings for set-ups this host does not have: tablets from the repository's
/// recordings, with what udev and the socket would say of them. The sentences are what a user
/// reads, so the tests check the reason and the fix each one names.
@Suite struct DoctorFindingsTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func description(_ trace: String) throws -> DeviceDescription {
        try TraceFile.load(path: repository.appendingPathComponent("traces/\(trace)").path).devices[0].description
    }

    static func node(_ devnode: String, _ description: DeviceDescription?, kinds: Set<String> = ["TABLET"],
                     name: String? = nil, group: String = "penkit") -> DoctorFacts.Node {
        DoctorFacts.Node(devnode: devnode, name: name ?? description?.name ?? "?", kinds: kinds, mode: 0o20640, group: group,
                         readable: true, description: description, quirks: description.map { Quirks.forTablet($0, paths: []) },
                         libwacomModel: nil, holders: [])
    }

    static func facts(nodes: [DoctorFacts.Node], reading: [String] = [], settings: [String: String] = ["input": "live"],
                      daemon: Bool = true) -> DoctorFacts {
        let devices = reading.enumerated().map { DeviceInfo(id: $0.offset + 1, name: "t", vendor: 0, product: 0, source: $0.element) }
        return DoctorFacts(user: "alice", groups: ["alice"], attempts: [.init(path: "/run/penkit/penkit.sock")],
                           daemon: daemon ? .init(path: "/run/penkit/penkit.sock", serverVersion: "0.1.0", devices: devices, settings: settings) : nil,
                           nodes: nodes, libinputVersion: "1.22.1", virtualTabletQuirk: nil, desktopSettings: [])
    }

    @Test func aTabletPenkitdReadsIsOkAndOneWithoutResolutionIsExplainedInLibinputsTerms() throws {
        let real = try Self.description("wacom-intuos4-6x9-stylus-drag.evemu")
        var unresolved = try Self.description("genius-easypen-i405x.evemu")
        unresolved.absInfo[0]?.resolution = 0
        unresolved.absInfo[1]?.resolution = 0
        let findings = DoctorFindings.findings(Self.facts(nodes: [Self.node("/dev/input/event5", real), Self.node("/dev/input/event7", unresolved)],
                                                          reading: ["/dev/input/event5"]))
        #expect(findings.contains { $0.level == .ok && $0.message.hasPrefix("penkitd reads the tablet /dev/input/event5") })
        let ignored = try #require(findings.first { $0.subject.hasPrefix("/dev/input/event7") && $0.level == .problem })
        #expect(ignored.message.contains("without x/y resolution"))
        #expect(ignored.fix?.contains("AttrResolutionHint") == true)
    }

    /// libwacom's own data files (Debian's libwacom-common, which libinput depends on) list the
    /// Intuos4's styli; the doctor names them, the Art Pen among them.
    @Test func libwacomsStyliForATabletItKnowsAreNamed() throws {
        let intuos = try Self.description("wacom-intuos4-6x9-stylus-drag.evemu")
        let database = try #require(LibwacomDatabase.installed, "libwacom's data files are installed with libinput")
        let styli = database.styli(of: intuos)
        // The Art Pen's id and name, read from libwacom.stylus itself.
        let stylusFile = try String(contentsOfFile: LibwacomDatabase.defaultDirectory + "/libwacom.stylus", encoding: .utf8)
        let section = try #require(stylusFile.components(separatedBy: "[0x804]").dropFirst().first?.components(separatedBy: "\n[").first)
        #expect(section.contains("\nName=Art Pen\n"), "\(section)")
        #expect(styli.contains("Art Pen (0x804)"), "\(styli)")
        var node = Self.node("/dev/input/event5", intuos)
        node.libwacomStyli = styli
        let findings = DoctorFindings.findings(Self.facts(nodes: [node], reading: ["/dev/input/event5"]))
        #expect(findings.contains { $0.area == "libinput" && $0.message.hasPrefix("libwacom's styli for /dev/input/event5") && $0.message.contains("Art Pen (0x804)") })
    }

    @Test func aKeyboardIsNeverCalledATabletNorReadAndATabletTaggedAKeyboardIsSaidToBeLeftAlone() throws {
        let keyboard = Self.node("/dev/input/event2", nil, kinds: ["KEYBOARD", "KEY"], name: "AT Translated Set 2 keyboard")
        let both = Self.node("/dev/input/event9", try Self.description("wacom-intuos4-6x9-pad-buttons.evemu"), kinds: ["TABLET_PAD", "KEYBOARD"])
        let findings = DoctorFindings.findings(Self.facts(nodes: [keyboard, both]))
        // The keyboard is named as such, never as a tablet penkitd reads or ignores.
        let keyboardFindings = findings.filter { $0.subject.hasPrefix("/dev/input/event2") }
        #expect(keyboardFindings.count == 1 && keyboardFindings[0].message.contains("is a keyboard, not a tablet: penkitd never opens it"))
        #expect(keyboardFindings.allSatisfy { $0.area == "input" && $0.level == .info })
        #expect(findings.contains { $0.subject.hasPrefix("/dev/input/event9") && $0.message.contains("penkitd never opens a keyboard") })
        #expect(findings.contains { $0.message.hasPrefix("udev knows no tablet") }, "a pad tagged a keyboard is not counted as a tablet")
    }

    @Test func aSocketRefusedForPermissionNamesTheGroupToJoin() {
        var facts = Self.facts(nodes: [], daemon: false)
        facts.attempts = [.init(path: "/run/penkit/penkit.sock", failure: "Permission denied", group: "penkit", mode: 0o660)]
        let findings = DoctorFindings.findings(facts)
        let refused = findings.first { $0.subject == "/run/penkit/penkit.sock" }
        #expect(refused?.fix == "join its group: `sudo usermod -aG penkit alice`, then log out and in again")
        facts.groups.append("penkit")
        #expect(DoctorFindings.findings(facts).first { $0.subject == "/run/penkit/penkit.sock" }?.fix?.contains("log out and in again") == true)
        #expect(findings.contains { $0.message.hasPrefix("no penkitd answered") && $0.fix?.contains("systemctl") == true })
    }

    @Test func theVirtualTabletOnButMissingIsAProblemAndItsQuirkMissingAWarning() throws {
        let real = try Self.description("wacom-dth2242-pen.evemu")
        var facts = Self.facts(nodes: [Self.node("/dev/input/event5", real)], reading: ["/dev/input/event5"],
                               settings: ["input": "live", "virtualTablet": "on"])
        facts.daemon?.devices[0].geometry = TabletGeometry(real, libwacom: nil)
        var findings = DoctorFindings.findings(facts)
        #expect(findings.contains { $0.level == .problem && $0.message.contains("no penkit virtual tablet exists") })
        facts.nodes.append(Self.node("/dev/input/event12", nil, name: "penkit virtual tablet: \(real.name)"))
        findings = DoctorFindings.findings(facts)
        #expect(!findings.contains { $0.message.contains("no penkit virtual tablet exists") })
        #expect(findings.contains { $0.level == .ok && $0.message.hasPrefix("apps get penkit's pen through /dev/input/event12") })
        #expect(findings.contains { $0.level == .warning && $0.message.contains("quirk for the virtual tablet is not installed") })
        #expect(findings.contains { $0.subject.hasPrefix("/dev/input/event12") && $0.message.contains("penkitd never does") })

        // The grab, as penkitd's status says it: held, or not yet (a pen twice for apps), with the fix.
        func status(grabbed: Bool) -> StatusMessage {
            StatusMessage(configFile: nil, settings: [], devices: [
                .init(device: 1, name: real.name, source: "/dev/input/event5", proximity: "out", tool: nil, serial: nil, contact: false,
                      reports: 0, reportRateHz: nil, lastReportAgeMilliseconds: nil, settings: [], tools: [], grabbed: grabbed)])
        }
        facts.daemon?.status = status(grabbed: true)
        #expect(DoctorFindings.findings(facts).contains { $0.level == .ok && $0.message.hasPrefix("penkitd holds /dev/input/event5 for the virtual tablet") })
        facts.daemon?.status = status(grabbed: false)
        let loose = try #require(DoctorFindings.findings(facts).first { $0.area == "virtual-tablet" && $0.subject == "/dev/input/event5" })
        #expect(loose.level == .warning && loose.message.contains("apps may get its pen twice") && loose.fix?.contains("takes the grab") == true)
    }

    @Test func kdeSettingsForTheVirtualTabletAreSaidToActTwice() {
        let text = """
            [Libinput][0][0][penkit virtual tablet: Wacom DTH2242 Pen]
            TabletToolPressureCurve=0,0;0.3,0.7;1,1
            [Libinput][1386][89][Wacom DTH2242 Pen]
            InputArea=0,0,0.5,0.5
            [Mouse]
            InputArea=1
            """
        let settings = DoctorFacts.kdeSettings(text)
        #expect(settings.count == 2)
        var facts = Self.facts(nodes: [], settings: ["input": "live", "virtualTablet": "on"])
        facts.desktopSettings = settings
        let twice = DoctorFindings.findings(facts).filter { $0.area == "desktop" }
        // Only the virtual tablet's: the real tablet's settings no longer reach apps while penkitd holds it.
        #expect(twice.count == 1)
        #expect(twice.first?.message.contains("TabletToolPressureCurve") == true)
    }

    @Test func theRealTabletsDesktopSettingsAreSaidToNoLongerApplyWithTheImportToTakeThemOver() {
        let text = """
            [Libinput][1386][89][Wacom DTH2242 Pen]
            InputArea=0,0,0.5,0.5
            LeftHanded=true
            """
        var facts = Self.facts(nodes: [], settings: ["input": "live", "virtualTablet": "on"])
        facts.daemon?.devices = [DeviceInfo(id: 1, name: "Wacom DTH2242 Pen", vendor: 0x56a, product: 0x59, source: "/dev/input/event5")]
        facts.desktopSettings = DoctorFacts.kdeSettings(text)
            + [DoctorFacts.DesktopSetting(desktop: "GNOME", key: "056a:0059", setting: "area", value: "[0.1, 0.0, 0.0, 0.0]")]
        let findings = DoctorFindings.findings(facts).filter { $0.area == "desktop" }
        let kde = findings.first { $0.subject == "KDE Wacom DTH2242 Pen" }
        #expect(kde?.message.contains("InputArea, LeftHanded") == true && kde?.message.contains("no longer apply") == true)
        #expect(kde?.fix?.contains("penkit settings import --from kde") == true)
        #expect(findings.first { $0.subject == "GNOME Wacom DTH2242 Pen" }?.fix?.contains("penkit settings import --from gnome") == true)
        // With the virtual tablet off, they apply as ever: nothing to say.
        facts.daemon?.settings["virtualTablet"] = "off"
        #expect(DoctorFindings.findings(facts).filter { $0.area == "desktop" }.isEmpty)
    }

    @Test func liveFiguresAndSettingsAreSaidPerTabletAndToolWithTheirOriginsAndAPadAloneHasNoPenToReportOn() throws {
        let geometry = TabletGeometry(width: 223.5, height: 139.7, resolutionX: 200, resolutionY: 200, axes: [], tools: ["pen"], buttons: [], integration: [])
        var pen = DeviceInfo(id: 1, name: "Wacom Intuos4 6x9", vendor: 0x56a, product: 0xb9, source: "/dev/input/event5")
        pen.geometry = geometry
        let pad = DeviceInfo(id: 2, name: "Wacom Intuos4 6x9 Pad", vendor: 0x56a, product: 0xb9, source: "/dev/input/event6")
        var facts = Self.facts(nodes: [])
        facts.daemon?.devices = [pen, pad]
        let curve = StatusMessage.Setting(key: "pressure-curve", value: "0.2, 0.1, 0.8, 0.9", origin: "config file /etc/penkit/penkitd.conf:6")
        let rotation = StatusMessage.Setting(key: "rotation", value: "90", origin: "reload /etc/penkit/penkitd.conf:4")
        facts.daemon?.status = StatusMessage(
            configFile: "/etc/penkit/penkitd.conf",
            settings: [.init(key: "virtual-tablet", value: "true", origin: "flag --virtual-tablet")],
            devices: [
                .init(device: 1, name: pen.name, source: pen.source, proximity: "in", tool: .pen, serial: 0x99800b93, contact: false,
                      reports: 812, reportRateHz: 199.7, lastReportAgeMilliseconds: 3, settings: [rotation],
                      tools: [.init(type: .pen, serial: 0x99800b93, settings: [curve])]),
                .init(device: 2, name: pad.name, source: pad.source, proximity: "out", tool: nil, serial: nil, contact: false,
                      reports: 0, reportRateHz: nil, lastReportAgeMilliseconds: nil, settings: [], tools: []),
            ])
        let findings = DoctorFindings.findings(facts)
        let live = findings.filter { $0.area == "live" }
        #expect(live.count == 1, "the pad alone has no pen: \(live)")
        #expect(live.first?.message.contains("the pen serial 0x99800b93 is in proximity, hovering; reports at 200 Hz; 812 report(s)") == true,
                "\(live)")
        let settings = findings.filter { $0.area == "settings" }.map(\.message)
        #expect(settings.contains { $0.contains("virtual-tablet true (flag --virtual-tablet)") }, "\(settings)")
        #expect(settings.contains { $0.hasPrefix("mapping of /dev/input/event5") && $0.contains("rotation 90 (reload /etc/penkit/penkitd.conf:4)") })
        #expect(settings.contains { $0.hasPrefix("the pen serial 0x99800b93 on /dev/input/event5: pressure-curve 0.2, 0.1, 0.8, 0.9 (config file /etc/penkit/penkitd.conf:6)") })
        #expect(!settings.contains { $0.contains("event6") }, "the pad has no mapping of its own: \(settings)")

        // Out of proximity: how long ago it last reported; before any report, how to get a rate.
        facts.daemon?.status?.devices[0].proximity = "out"
        facts.daemon?.status?.devices[0].lastReportAgeMilliseconds = 4_230
        #expect(DoctorFindings.findings(facts).contains { $0.message.contains("no tool in proximity; last report 4.2 s ago; reports at 200 Hz") })
        facts.daemon?.status?.devices[0].reports = 0
        facts.daemon?.status?.devices[0].reportRateHz = nil
        #expect(DoctorFindings.findings(facts).contains { $0.message.contains("no report yet: bring the pen near the tablet") })

        // A penkitd older than `status`: said, with the fix.
        facts.daemon?.status = nil
        let old = try #require(DoctorFindings.findings(facts).first { $0.area == "live" })
        #expect(old.fix?.contains("upgrade penkitd") == true)
    }

    @Test func onThisHostTheDoctorFindsARunningPenkitdReplaying() async throws {
        let socket = FileManager.default.temporaryDirectory.appendingPathComponent("doctor-\(getpid()).sock").path
        let state = FileManager.default.temporaryDirectory.appendingPathComponent("doctor-state-\(getpid())").path
        let binary = Bundle.main.bundleURL.appendingPathComponent("penkitd").path
        let daemon = Process()
        daemon.executableURL = URL(fileURLWithPath: binary)
        daemon.arguments = ["--socket", socket, "--state-dir", state, "--replay",
                            Self.repository.appendingPathComponent("traces/wacom-intuos4-6x9-stylus-tap.evemu").path, "--loop"]
        daemon.standardError = FileHandle.nullDevice
        try daemon.run()
        defer { daemon.terminate(); daemon.waitUntilExit(); try? FileManager.default.removeItem(atPath: state) }
        // Bounded only so a broken run ends: penkitd binds its socket as it starts.
        var facts = await DoctorFacts.gather(socket: socket)
        for _ in 0..<600 where facts.daemon == nil {
            try await Task.sleep(for: .milliseconds(50))
            facts = await DoctorFacts.gather(socket: socket)
        }
        let daemonFinding = try #require(DoctorFindings.findings(facts).first { $0.area == "daemon" })
        #expect(daemonFinding.level == .ok)
        #expect(daemonFinding.message.contains("replay input, 1 device(s)"))
    }
}
