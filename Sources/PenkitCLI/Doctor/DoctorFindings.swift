import PenInput
import PenKit
import PenVirtualTablet

/// One thing `penkit doctor` says: what it found, and, when something needs doing, the fix.
struct DoctorFinding: Sendable, Hashable {
    enum Level: String, Sendable { case ok, info, warning, problem }
    var level: Level
    /// daemon, tablet, libinput, virtual-tablet, desktop.
    var area: String
    var subject: String
    var message: String
    var fix: String?
}

/// The findings for a set of facts: plain sentences, each problem with its fix.
enum DoctorFindings {
    static func findings(_ facts: DoctorFacts) -> [DoctorFinding] {
        var out: [DoctorFinding] = []
        out += daemon(facts)
        out += tablets(facts)
        out += DoctorLiveFindings.live(facts)
        out += DoctorLiveFindings.settings(facts)
        out += virtualTablet(facts)
        out += desktop(facts)
        return out
    }

    static func daemon(_ facts: DoctorFacts) -> [DoctorFinding] {
        if let daemon = facts.daemon {
            let input = daemon.settings["input"] ?? "live"
            return [DoctorFinding(level: .ok, area: "daemon", subject: daemon.path,
                                  message: "penkitd \(daemon.serverVersion) answers on \(daemon.path) (\(input) input, "
                                      + "\(daemon.devices.count) device(s), smoothing \(daemon.settings["smoothing"] ?? "unknown"), "
                                      + "virtual tablet \(daemon.settings["virtualTablet"] ?? "off"))")]
        }
        var out: [DoctorFinding] = []
        for attempt in facts.attempts {
            let reason = attempt.failure ?? "no answer"
            var fix: String?
            if reason.contains("ermission") {
                let group = attempt.group ?? "penkit"
                fix = facts.groups.contains(group)
                    ? "your session predates joining \(group): log out and in again"
                    : "join its group: `sudo usermod -aG \(group) \(facts.user)`, then log out and in again"
            }
            out.append(DoctorFinding(level: .problem, area: "daemon", subject: attempt.path,
                                     message: "no penkitd at \(attempt.path): \(reason)", fix: fix))
        }
        out.append(DoctorFinding(level: .problem, area: "daemon", subject: "penkitd",
                                 message: "no penkitd answered (tried, in order: " + facts.attempts.map(\.path).joined(separator: ", ") + ")",
                                 fix: "start it: `systemctl --user start penkit.socket`, or `sudo systemctl enable --now penkit.socket` "
                                     + "and join the penkit group, or point PENKIT_SOCKET at its socket"))
        return out
    }

    static func tablets(_ facts: DoctorFacts) -> [DoctorFinding] {
        var out: [DoctorFinding] = []
        let read = Set(facts.daemon?.devices.map(\.source) ?? [])
        var tablets = 0
        for node in facts.nodes {
            let subject = "\(node.devnode) (\(node.name))"
            if VirtualTabletIdentity.isVirtualTablet(name: node.name) {
                out.append(DoctorFinding(level: .info, area: "tablet", subject: subject,
                                         message: "\(subject) is penkit's virtual tablet: apps read it; penkitd never does"))
                continue
            }
            let isTablet = node.kinds.contains("TABLET") || node.kinds.contains("TABLET_PAD")
            if node.kinds.contains("KEYBOARD") {
                // Said for every keyboard: a user (and the VM test) can see penkitd leaves them alone.
                out.append(DoctorFinding(level: .info, area: "input", subject: subject,
                                         message: isTablet
                                             ? "\(subject) is tagged a keyboard as well as a tablet: penkitd never opens a keyboard"
                                             : "\(subject) is a keyboard, not a tablet: penkitd never opens it"))
                continue
            }
            guard isTablet else { continue }
            tablets += 1
            let kind = node.kinds.contains("TABLET_PAD") && !node.kinds.contains("TABLET") ? "tablet pad" : "tablet"
            if read.contains(node.devnode) {
                out.append(DoctorFinding(level: .ok, area: "tablet", subject: subject, message: "penkitd reads the \(kind) \(subject)"))
            } else if facts.daemon?.settings["input"] == "replay" {
                out.append(DoctorFinding(level: .info, area: "tablet", subject: subject,
                                         message: "penkitd is replaying a trace, so it does not read \(subject)"))
            } else if facts.daemon != nil {
                out.append(DoctorFinding(level: .problem, area: "tablet", subject: subject,
                                         message: "penkitd does not read the \(kind) \(subject): \(whyIgnored(node))",
                                         fix: fixForIgnored(node)))
            }
            if node.group != "penkit" && !node.readable {
                out.append(DoctorFinding(level: .warning, area: "tablet", subject: subject,
                                         message: "\(node.devnode) belongs to group \(node.group), mode \(String(node.mode & 0o777, radix: 8)): "
                                             + "penkit's udev rule has not been applied to it",
                                         fix: "install the package (or `sudo make install`), then `sudo udevadm trigger --subsystem-match=input`"))
            }
            if let quirks = node.quirks, let description = node.description {
                var parts: [String] = []
                let smoothing = quirks.tabletSmoothing.map { $0 ? "on (quirk)" : "off (quirk)" } ?? "on (libinput's default)"
                parts.append("smoothing \(smoothing)")
                if let range = quirks.pressureRange { parts.append("pressure range \(range.upper):\(range.lower)") }
                if !quirks.disabledCodes.isEmpty || !quirks.eventCodes.isEmpty { parts.append("some event codes disabled by a quirk") }
                if let resolution = description.absInfo[0]?.resolution, resolution == 0 { parts.append("no x resolution") }
                parts.append(node.libwacomModel.map { "libwacom: \($0)" } ?? "unknown to libwacom")
                out.append(DoctorFinding(level: .info, area: "libinput", subject: subject,
                                         message: "libinput \(facts.libinputVersion ?? "") on \(subject): " + parts.joined(separator: ", ")))
                if !node.libwacomStyli.isEmpty {
                    // What libinput learns of each pen from libwacom: which axes, eraser and buttons it has.
                    out.append(DoctorFinding(level: .info, area: "libinput", subject: subject,
                                             message: "libwacom's styli for \(subject): " + node.libwacomStyli.joined(separator: ", ")))
                }
            }
            let others = node.holders
            if !others.isEmpty {
                out.append(DoctorFinding(level: .info, area: "tablet", subject: subject,
                                         message: "other readers hold \(node.devnode) open: \(others.joined(separator: ", "))"))
            }
        }
        if tablets == 0 {
            out.append(DoctorFinding(level: facts.daemon?.settings["input"] == "replay" ? .info : .problem, area: "tablet", subject: "/dev/input",
                                     message: "udev knows no tablet (no node tagged ID_INPUT_TABLET or ID_INPUT_TABLET_PAD)",
                                     fix: "plug the tablet in; `libinput list-devices` (libinput-tools) shows what the kernel found"))
        }
        return out
    }

    /// Why libinput (and so penkitd) leaves a tablet alone, in libinput's terms.
    static func whyIgnored(_ node: DoctorFacts.Node) -> String {
        guard let description = node.description else {
            return "its node could not be read here, so this cannot say why (run `sudo penkit doctor`)"
        }
        let abs = UInt16(3), key = UInt16(1)
        let resolution = description.absInfo[0]?.resolution ?? 0
        if description.has(type: abs, code: 0), resolution == 0, node.quirks?.resolutionHint == nil {
            return "libinput ignores a tablet without x/y resolution (\"missing tablet capabilities: resolution\")"
        }
        let tools: [UInt16] = [0x140, 0x141, 0x142, 0x143, 0x144, 0x145, 0x146, 0x147, 0x14b]  // BTN_TOOL_* and BTN_STYLUS
        if node.kinds.contains("TABLET") && !tools.contains(where: { description.has(type: key, code: $0) }) {
            return "it has neither a tool key nor a stylus button, which libinput needs of a tablet"
        }
        return "penkitd's log says why (`journalctl -u penkit`), and `penkit devices` what it reads"
    }

    static func fixForIgnored(_ node: DoctorFacts.Node) -> String? {
        guard let description = node.description, (description.absInfo[0]?.resolution ?? 0) == 0 else { return nil }
        return "add a libinput quirk with AttrResolutionHint for this device (libinput's device-quirks documentation)"
    }

    static func virtualTablet(_ facts: DoctorFacts) -> [DoctorFinding] {
        guard let daemon = facts.daemon, daemon.settings["input"] != "replay" else { return [] }
        let virtual = facts.nodes.filter { VirtualTabletIdentity.isVirtualTablet(name: $0.name) }
        guard daemon.settings["virtualTablet"] == "on" else {
            return [DoctorFinding(level: .info, area: "virtual-tablet", subject: "penkitd",
                                  message: "the virtual tablet is off: apps read the tablets directly, smoothed by libinput",
                                  fix: "`virtual-tablet = on` in penkitd.conf gives every app penkit's pen (docs/virtual-tablet.md)")]
        }
        var out: [DoctorFinding] = []
        let pens = daemon.devices.filter { $0.pad == nil || $0.geometry != nil }.count
        if virtual.isEmpty && pens > 0 {
            out.append(DoctorFinding(level: .problem, area: "virtual-tablet", subject: "penkitd",
                                     message: "the virtual tablet is on, but no penkit virtual tablet exists",
                                     fix: "penkitd's log says why (`journalctl -u penkit`): usually no write access to /dev/uinput"))
        }
        for node in virtual {
            out.append(DoctorFinding(level: .ok, area: "virtual-tablet", subject: node.devnode,
                                     message: "apps get penkit's pen through \(node.devnode) (\(node.name))"))
        }
        // The grab, from penkitd's own answer: without it the compositor reads the real tablet too.
        for device in daemon.status?.devices ?? [] where daemon.devices.first(where: { $0.id == device.device })?.geometry != nil {
            if device.grabbed {
                out.append(DoctorFinding(level: .ok, area: "virtual-tablet", subject: device.source,
                                         message: "penkitd holds \(device.source) for the virtual tablet (EVIOCGRAB): no other reader gets its pen, so apps see one pen"))
            } else {
                out.append(DoctorFinding(level: .warning, area: "virtual-tablet", subject: device.source,
                                         message: "penkitd does not hold \(device.source): apps may get its pen twice, from it and from the virtual tablet",
                                         fix: "lift the pen out of range: penkitd takes the grab once no tool is near; if it stays, penkitd's log says why (`journalctl -u penkit`)"))
            }
        }
        if facts.virtualTabletQuirk == nil {
            out.append(DoctorFinding(level: .warning, area: "virtual-tablet", subject: VirtualTabletQuirk.fileName,
                                     message: "penkit's libinput quirk for the virtual tablet is not installed: the compositor smooths "
                                         + "the pen a second time and applies its own pressure thresholds",
                                     fix: "install the package, or copy libinput/\(VirtualTabletQuirk.fileName) to /etc/libinput/"))
        }
        return out
    }

    /// Desktop settings that would act a second time on what penkit already applied: those of
    /// the virtual tablet itself (the real tablet's no longer reach apps while penkitd holds it).
    static func desktop(_ facts: DoctorFacts) -> [DoctorFinding] {
        guard facts.daemon?.settings["virtualTablet"] == "on" else { return [] }
        return realTabletSettings(facts) + facts.desktopSettings.filter { setting in
            setting.key == "0000:0000" || VirtualTabletIdentity.isVirtualTablet(name: setting.key)
        }.map { setting in
            DoctorFinding(level: .warning, area: "desktop", subject: "\(setting.desktop) \(setting.key)",
                          message: "\(setting.desktop)'s \(setting.setting) for penkit's virtual tablet is \(setting.value): "
                              + "applied on top of penkitd's mapping and curve, it acts twice",
                          fix: "reset it in the desktop's tablet settings, and set area and curve in penkitd.conf alone")
        }
    }

    /// The real tablets' own desktop settings: with the virtual tablet on, the compositor reads
    /// the virtual tablet, so they no longer apply. One finding per desktop and tablet.
    static func realTabletSettings(_ facts: DoctorFacts) -> [DoctorFinding] {
        let devices = facts.daemon?.devices ?? []
        var out: [DoctorFinding] = []
        for device in devices {
            let ids = DesktopSettingsIDs.hex4(device.vendor) + ":" + DesktopSettingsIDs.hex4(device.product)
            for desktop in ["GNOME", "KDE"] {
                let settings = facts.desktopSettings.filter { $0.desktop == desktop && ($0.key == ids || $0.key == device.name) }
                guard !settings.isEmpty, !out.contains(where: { $0.subject == "\(desktop) \(device.name)" }) else { continue }
                out.append(DoctorFinding(level: .warning, area: "desktop", subject: "\(desktop) \(device.name)",
                                         message: "\(desktop)'s settings for \(device.name) (\(settings.map(\.setting).joined(separator: ", "))) no longer apply: "
                                             + "with the virtual tablet on, the compositor reads the virtual tablet, not this one",
                                         fix: "take them over as penkit's: penkit settings import --from \(desktop.lowercased()) (--dry-run to see them first)"))
            }
        }
        return out
    }
}

/// Vendor and product ids as GNOME's paths write them: 4 lowercase hex digits.
enum DesktopSettingsIDs {
    static func hex4(_ value: UInt16) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}
